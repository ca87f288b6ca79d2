package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// writeFiles creates files (path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReadInputRefusesWhatIsNotARegularFileOfBoundedSize(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ok.machine": `machine "m" {}`, "eleven.txt": "01234567890"})
	if err := os.Symlink(filepath.Join(dir, "ok.machine"), filepath.Join(dir, "link.machine")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	tests := []struct {
		name      string
		path      string
		maxFile   int64 // maxFileSize for the test; 0 keeps it
		maxMemory int64
		want      string // the content, or the error with "ERR " before it
	}{
		{name: "regular file", path: "ok.machine", want: `machine "m" {}`},
		{name: "symbolic link to a regular file", path: "link.machine", want: `machine "m" {}`},
		{name: "missing file", path: "nothere.machine", want: "ERR nothere.machine: no such file"},
		{name: "directory", path: ".", want: "ERR . is a directory, not a regular file"},
		{name: "character device", path: "/dev/zero", want: "ERR /dev/zero is a character device, not a regular file"},
		{name: "file above the size limit", path: "eleven.txt", maxFile: 10,
			want: "ERR eleven.txt is 11 B; an input file may be at most 10 B"},
		{name: "file at the size limit", path: "eleven.txt", maxFile: 11, want: "01234567890"},
		{name: "file whose parsed form exceeds the memory limit", path: "eleven.txt", maxMemory: 100,
			want: "ERR reading eleven.txt (11 B) needs about 352 B; the limit is 100 B, set --max-memory to raise it"},
		// Files in /proc say they are empty and then have content: the
		// limit holds for what is read, not only for what Stat says.
		{name: "file longer than its stated size", path: "/proc/self/status", maxFile: 10,
			want: "ERR /proc/self/status grew while being read, past the limit of 10 B"},
	}
	t.Chdir(dir)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if filepath.IsAbs(tt.path) {
				if _, err := os.Stat(tt.path); err != nil {
					t.Skip(err)
				}
			}
			if tt.maxFile > 0 {
				defer func(old int64) { maxFileSize = old }(maxFileSize)
				maxFileSize = tt.maxFile
			}
			data, err := ReadInput(tt.path, tt.maxMemory)
			got := string(data)
			if err != nil {
				got = "ERR " + err.Error()
			}
			if got != tt.want {
				t.Errorf("ReadInput(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

func TestImportOfAnInputThatIsNotARegularFileIsAnErrorAtTheImport(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	writeFiles(t, dir, map[string]string{
		"zero.machine": "import \"/dev/zero\"\nmachine \"m\" {}\n",
		"dir.machine":  "import \"sub\"\nmachine \"m\" {}\n",
		"sub/x":        "",
	})
	tests := []struct{ file, want string }{
		{"zero.machine", "zero.machine:1:1: /dev/zero is a character device, not a regular file\n" +
			"    import \"/dev/zero\"\n    ^"},
		{"dir.machine", "dir.machine:1:1: sub is a directory, not a regular file\n" +
			"    import \"sub\"\n    ^"},
	}
	for _, tt := range tests {
		if got := loadErr(tt.file); got != tt.want {
			t.Errorf("Load(%s):\n%s\nwant:\n%s", tt.file, got, tt.want)
		}
	}
}

func TestImportCyclesAreFoundThroughAnyPath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	abs := filepath.Join(dir, "abs.machine")
	writeFiles(t, dir, map[string]string{
		"self.machine":     "import \"self.machine\"\nmachine \"m\" {}\n",
		"dot.machine":      "import \"./sub/../dot.machine\"\nmachine \"m\" {}\n",
		"abs.machine":      fmt.Sprintf("import %q\nmachine \"m\" {}\n", abs),
		"viaLink.machine":  "import \"link.machine\"\nmachine \"m\" {}\n",
		"a.machine":        "import \"b.machine\"\nmachine \"m\" {}\n",
		"b.machine":        "import \"c.machine\"\nparam b = 1\n",
		"c.machine":        "import \"a.machine\"\nparam c = 1\n",
		"up.machine":       "import \"sub/down.machine\"\nmachine \"m\" {}\n",
		"sub/down.machine": "param d = 1\nimport \"../up.machine\"\n",
	})
	if err := os.Symlink("viaLink.machine", filepath.Join(dir, "link.machine")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	tests := []struct{ name, file, want string }{
		{"relative self-import", "self.machine",
			"self.machine:1:1: import cycle: self.machine imports self.machine"},
		{"self-import through another directory", "dot.machine",
			"dot.machine:1:1: import cycle: dot.machine imports dot.machine"},
		{"absolute self-import", "abs.machine",
			"abs.machine:1:1: import cycle: abs.machine imports " + abs},
		{"self-import through a symbolic link", "viaLink.machine",
			"viaLink.machine:1:1: import cycle: viaLink.machine imports link.machine"},
		{"three files", "a.machine",
			"c.machine:1:1: import cycle: a.machine imports b.machine imports c.machine imports a.machine"},
		{"the cycle's second file given first", "b.machine",
			"a.machine:1:1: import cycle: b.machine imports c.machine imports a.machine imports b.machine"},
		{"a file in a subdirectory", "up.machine",
			"sub/down.machine:2:1: import cycle: up.machine imports sub/down.machine imports up.machine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := loadErr(tt.file)
			if first, _, _ := strings.Cut(got, "\n"); first != tt.want {
				t.Errorf("Load(%s):\n%s\nwant first line:\n%s", tt.file, got, tt.want)
			}
			if n := strings.Count(got, "import cycle"); n != 1 {
				t.Errorf("Load(%s) reports %d import cycles, want 1:\n%s", tt.file, n, got)
			}
		})
	}
}

func TestAFileImportedAlongSeveralPathsIsReadOnce(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	lib := filepath.Join(dir, "lib.machine")
	writeFiles(t, dir, map[string]string{
		// lib.machine defines a machine: reading it twice would define
		// it twice.
		"lib.machine":        "param base = 20\nmachine \"lib\" {}\n",
		"left.machine":       "import \"lib.machine\"\nparam left = base + 1\n",
		"right.machine":      fmt.Sprintf("import %q\nparam right = base + 2\n", lib),
		"sub/linked.machine": "import \"../alias.machine\"\n",
		"top.machine": "import \"left.machine\"\nimport \"right.machine\"\nimport \"./sub/../lib.machine\"\n" +
			"import \"sub/linked.machine\"\nmachine \"m\" { param x = left + right }\n",
	})
	if err := os.Symlink("lib.machine", filepath.Join(dir, "alias.machine")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	m, err := Load("top.machine")
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Eval("x")
	if err != nil || v.String() != "43" {
		t.Errorf("x = %v, %v; want 43", v, err)
	}
}

func TestAnImportThatIsNotAMachineFileIsOneBoundedError(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var passwd strings.Builder
	for i := range 50 {
		fmt.Fprintf(&passwd, "user%02d:x:%d:%d::/home/user%02d:/bin/sh\n", i, 1000+i, 1000+i, i)
	}
	writeFiles(t, dir, map[string]string{
		"passwd":       passwd.String(),
		"m.machine":    "machine \"m\" {}\nimport \"passwd\"\n",
		"lib.machine":  "param a = 1 +\n",
		"uses.machine": "import \"lib.machine\"\nmachine \"m\" {}\n",
	})
	_, err := Load("m.machine")
	ds, ok := err.(lang.Diagnostics)
	if !ok || len(ds) != 1 {
		t.Fatalf("Load: %d diagnostics (%T), want 1:\n%v", len(ds), err, err)
	}
	d := ds[0]
	if want := "m.machine:2:1"; d.Pos.String() != want {
		t.Errorf("error at %s, want %s (the import)", d.Pos, want)
	}
	if !strings.HasPrefix(d.Msg, "passwd is not a machine file: 1:") || !strings.Contains(d.Msg, "more error") {
		t.Errorf("message %q, want \"passwd is not a machine file: 1:…\" with the count of the others", d.Msg)
	}
	if len(d.Notes) > importNotes {
		t.Errorf("%d notes, want at most %d", len(d.Notes), importNotes)
	}
	if text := err.Error(); strings.Contains(text, "user10") {
		t.Errorf("the error quotes line 11 of the imported file:\n%s", text)
	}

	// A machine file with one mistake is quoted in full: its one error.
	got := loadErr("uses.machine")
	want := "uses.machine:1:1: lib.machine is not a machine file: 2:1: "
	if !strings.HasPrefix(got, want) || !strings.Contains(got, "lib.machine:2:1: ") || strings.Contains(got, "more error") {
		t.Errorf("Load(uses.machine):\n%s\nwant it to start %q and show lib.machine:2:1", got, want)
	}
}

// diagnosticSet is the rendered diagnostics of err, sorted.
func diagnosticSet(err error) []string {
	var ds lang.Diagnostics
	ds.Append(err)
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Error()
	}
	sort.Strings(out)
	return slicesCompact(out)
}

func slicesCompact(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

func TestCheckReportsWhatLoadingEachMachineReports(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	// Machines that are fine, wrong on their own, wrong through a shared
	// definition, and wrong through what they extend.
	var b strings.Builder
	b.WriteString("param shared = 1ns + 1B\n")
	for i := range 40 {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "machine \"m%d\" { param p = %d }\n", i, i)
		case 1:
			fmt.Fprintf(&b, "machine \"m%d\" { param p = nosuch%d }\n", i, i)
		case 2:
			fmt.Fprintf(&b, "machine \"m%d\" extends \"m%d\" { param q = p * 2 }\n", i, i-1)
		case 3:
			fmt.Fprintf(&b, "machine \"m%d\" extends \"nomachine\" {}\n", i)
		}
	}
	writeFiles(t, dir, map[string]string{"many.machine": b.String(), "good.machine": "machine \"a\" {}\nmachine \"b\" extends \"a\" {}\n"})

	for _, file := range []string{"many.machine", "good.machine"} {
		names, err := MachineNames(file)
		if err != nil {
			t.Fatal(err)
		}
		var each lang.Diagnostics
		for _, n := range names {
			_, err := Load(file, WithMachine(n))
			each.Append(err)
		}
		gotNames, got := Check(file)
		if strings.Join(gotNames, ",") != strings.Join(names, ",") {
			t.Errorf("Check(%s) names %v, want %v", file, gotNames, names)
		}
		want := diagnosticSet(each.Err())
		if g := diagnosticSet(got); strings.Join(g, "\n") != strings.Join(want, "\n") {
			t.Errorf("Check(%s):\n%s\nwant what loading each machine reports:\n%s", file, strings.Join(g, "\n"), strings.Join(want, "\n"))
		}
		// Each diagnostic once, however many machines share it.
		if ds, _ := got.(lang.Diagnostics); len(ds) != len(diagnosticSet(got)) {
			t.Errorf("Check(%s) repeats diagnostics:\n%v", file, got)
		}
		if file == "many.machine" && len(want) < 3 {
			t.Errorf("many.machine gives %d diagnostics; the test needs several kinds", len(want))
		}
	}
}

func TestCheckOfAnUnreadableOrUnparsableFileReportsWhy(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFiles(t, dir, map[string]string{"syntax.machine": "machine \"m\" { param a = }\n"})
	tests := []struct{ spec, want string }{
		{"nothere.machine", "nothere.machine: no such file"},
		{".", ". is a directory, not a regular file"},
		{"syntax.machine", "syntax.machine:1:"},
		{"std:nosuch", "no standard machine \"nosuch\""},
	}
	for _, tt := range tests {
		names, err := Check(tt.spec)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || names != nil {
			t.Errorf("Check(%s) = %v, %v; want no names and an error starting %q", tt.spec, names, err, tt.want)
		}
	}
	if names, err := Check("std:xmp64"); err != nil || len(names) != 1 {
		t.Errorf("Check(std:xmp64) = %v, %v; want one machine", names, err)
	}
}
