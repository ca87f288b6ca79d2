package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The files users copy from — the standard machines and the examples —
// are in the form parasol fmt gives (Parasol I files excepted: fmt does
// not rewrite them).
func TestStandardMachinesAndExamplesAreFormatted(t *testing.T) {
	var files []string
	for _, root := range []string{"../../stdlib/machines", "../../examples"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".machine") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 10 {
		t.Fatalf("found %d machine files; the walk is wrong", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "machinename") && !strings.Contains(string(data), "machine \"") {
			continue // Parasol I
		}
		requireFormatted(t, f)
	}
}
