package parser

import (
	"testing"

	"github.com/parasol-lang/parasol/internal/golden"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestGolden parses the "input.machine" of each testdata/golden/*.txtar and
// compares the canonical formatting (or the syntax errors) with "want".
// Formatting the output again must give the same text. Run with -update to
// regenerate.
func TestGolden(t *testing.T) {
	golden.Run(t, "testdata/golden/*.txtar", func(t *testing.T, ar *txtar.Archive) string {
		f, err := ParseFile("input.machine", golden.Section(ar, "input.machine"))
		if err != nil {
			return "errors:\n" + err.Error() + "\n"
		}
		got := format.File(f)
		again, err := ParseFile("formatted.machine", got)
		if err != nil {
			t.Fatalf("formatted output does not parse: %v\n%s", err, got)
		}
		if twice := format.File(again); twice != got {
			t.Errorf("formatting is not idempotent:\n--- once ---\n%s--- twice ---\n%s", got, twice)
		}
		return got
	})
}
