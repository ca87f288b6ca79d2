package eval

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files with the current output")

// TestGolden runs each testdata/golden/*.txtar: the machine in
// "input.machine" (and any other .machine files, for imports) is loaded with
// the options in "options" (lines of "machine NAME" or "set PATH=VALUE"),
// then each line of "queries" is evaluated. The load errors or the query
// results must equal "want". Run with -update to regenerate.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := runGolden(t, ar)
			if *update {
				setSection(ar, "want", got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := section(ar, "want"); got != want {
				t.Errorf("output differs (run with -update to accept)\n--- got ---\n%s--- want ---\n%s", got, want)
			}
		})
	}
}

func runGolden(t *testing.T, ar *txtar.Archive) string {
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	opts := []Option{WithReadFile(func(p string) ([]byte, error) {
		if b, ok := files[filepath.ToSlash(p)]; ok {
			return b, nil
		}
		return nil, os.ErrNotExist
	})}
	for _, line := range lines(section(ar, "options")) {
		switch k, v, _ := strings.Cut(line, " "); k {
		case "machine":
			opts = append(opts, WithMachine(v))
		case "set":
			s, err := ParseSet(v)
			if err != nil {
				t.Fatal(err)
			}
			opts = append(opts, WithSet(s.Path, s.Value))
		default:
			t.Fatalf("unknown option %q", line)
		}
	}
	var b strings.Builder
	m, err := Load("input.machine", opts...)
	if err != nil {
		fmt.Fprintf(&b, "load error:\n%s\n", err)
		return b.String()
	}
	for _, q := range lines(section(ar, "queries")) {
		v, err := m.Eval(q)
		if err != nil {
			fmt.Fprintf(&b, "%s => error:\n%s\n", q, err)
			continue
		}
		fmt.Fprintf(&b, "%s => %s\n", q, v)
	}
	return b.String()
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func section(ar *txtar.Archive, name string) string {
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	return ""
}

func setSection(ar *txtar.Archive, name, data string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(data)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
}
