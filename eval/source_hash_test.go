package eval

import (
	"os"
	"path/filepath"
	"testing"
)

// A machine's source hash is its text's and its imports': the same files
// at another path hash alike, a change to the machine's file or to a file
// it imports (a comment too) does not.
func TestSourceHashIsTheTextsOfTheMachineAndItsImports(t *testing.T) {
	const base = "machine \"base\" {\n\ttopology t = ring(8) { speed = 10MB/s }\n}\n"
	const top = "import \"base.machine\"\nmachine \"top\" extends \"base\" {}\n"
	hash := func(dir, base, top string) string {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range map[string]string{"base.machine": base, "top.machine": top} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		m, err := Load(filepath.Join(dir, "top.machine"))
		if err != nil {
			t.Fatal(err)
		}
		return m.SourceHash()
	}
	tmp := t.TempDir()
	h := hash(filepath.Join(tmp, "a"), base, top)
	if len(h) != 12 {
		t.Errorf("hash %q: want 12 hex digits", h)
	}
	if moved := hash(filepath.Join(tmp, "b", "c"), base, top); moved != h {
		t.Errorf("the same files elsewhere hash to %s, at first %s", moved, h)
	}
	if changed := hash(filepath.Join(tmp, "d"), "# a comment\n"+base, top); changed == h {
		t.Errorf("an import changed hashes as before: %s", h)
	}
	if changed := hash(filepath.Join(tmp, "e"), base, top+"# a comment\n"); changed == h {
		t.Errorf("the machine's file changed hashes as before: %s", h)
	}
	a, errA := Load("std:xmp64")
	b, errB := Load("std:xmp64", WithSet("h_in", "80ns"))
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if a.SourceHash() != b.SourceHash() {
		t.Errorf("std:xmp64 hashes to %s and %s: --set values are not its text", a.SourceHash(), b.SourceHash())
	}
}

// A machine's sources are its file's text and its imports', each named as
// it was read, in the order read.
func TestSourcesAreTheMachineAndItsImports(t *testing.T) {
	const base = "machine \"base\" {\n\ttopology t = ring(8) { speed = 10MB/s }\n}\n"
	const top = "import \"base.machine\"\nmachine \"top\" extends \"base\" {}\n"
	dir := t.TempDir()
	for name, text := range map[string]string{"base.machine": base, "top.machine": top} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := Load(filepath.Join(dir, "top.machine"))
	if err != nil {
		t.Fatal(err)
	}
	srcs := m.Sources()
	if len(srcs) != 2 || srcs[0].Name != filepath.Join(dir, "top.machine") || srcs[0].Text != top ||
		srcs[1].Name != filepath.Join(dir, "base.machine") || srcs[1].Text != base {
		for _, s := range srcs {
			t.Logf("%s: %q", s.Name, s.Text)
		}
		t.Errorf("sources: %d, want top.machine's and base.machine's texts", len(srcs))
	}
}
