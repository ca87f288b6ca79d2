// Package golden runs txtar golden tests: each archive holds its inputs and
// a "want" section with the expected output, rewritten by -update.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files' want sections with the current output")

// Run calls produce for every archive matching pattern, as a subtest named
// after the file, and compares its output with the archive's "want"
// section (or, with -update, writes it there).
func Run(t *testing.T, pattern string, produce func(t *testing.T, ar *txtar.Archive) string) {
	t.Helper()
	files, _ := filepath.Glob(pattern)
	if len(files) == 0 {
		t.Fatalf("no golden files match %s", pattern)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := produce(t, ar)
			if *update {
				Set(ar, "want", got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(Section(ar, "want"), got); diff != "" {
				t.Errorf("output differs from want (-want +got; run with -update to accept):\n%s", diff)
			}
		})
	}
}

// Section returns the named file of an archive, or "".
func Section(ar *txtar.Archive, name string) string {
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	return ""
}

// Set replaces (or adds) the named file of an archive.
func Set(ar *txtar.Archive, name, data string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(data)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
}

// Update reports whether -update was given.
func Update() bool { return *update }
