package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/golden"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestGolden runs each testdata/golden/*.txtar: the machine in
// "input.machine" (and any other .machine files, for imports) is loaded with
// the options in "options" (lines of "machine NAME" or "set PATH=VALUE"),
// then each line of "queries" is evaluated. The load errors or the query
// results must equal "want". Run with -update to regenerate.
func TestGolden(t *testing.T) {
	golden.Run(t, "testdata/golden/*.txtar", runGolden)
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
	for _, line := range lines(golden.Section(ar, "options")) {
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
	for _, q := range lines(golden.Section(ar, "queries")) {
		v, err := m.Eval(q)
		if err != nil {
			fmt.Fprintf(&b, "%s => error:\n%s\n", q, err)
			continue
		}
		fmt.Fprintf(&b, "%s => %s\n", q, v)
	}
	return b.String()
}
