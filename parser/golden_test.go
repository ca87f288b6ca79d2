package parser

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files with the current output")

// TestGolden parses the "input.machine" of each testdata/golden/*.txtar and
// compares the canonical formatting (or the syntax errors) with "want".
// Formatting the output again must give the same text. Run with -update to
// regenerate.
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
			var input string
			wantIdx := -1
			for i, f := range ar.Files {
				switch f.Name {
				case "input.machine":
					input = string(f.Data)
				case "want":
					wantIdx = i
				}
			}
			f, err := ParseFile("input.machine", input)
			var got string
			if err != nil {
				got = "errors:\n" + err.Error() + "\n"
			} else {
				got = lang.Format(f)
				again, err := ParseFile("formatted.machine", got)
				if err != nil {
					t.Fatalf("formatted output does not parse: %v\n%s", err, got)
				}
				if twice := lang.Format(again); twice != got {
					t.Errorf("formatting is not idempotent:\n--- once ---\n%s--- twice ---\n%s", got, twice)
				}
			}
			if *update {
				if wantIdx < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					wantIdx = len(ar.Files) - 1
				}
				ar.Files[wantIdx].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if wantIdx < 0 || string(ar.Files[wantIdx].Data) != got {
				t.Errorf("output differs (run with -update to accept)\n--- got ---\n%s", got)
			}
		})
	}
}
