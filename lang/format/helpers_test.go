package format_test

import (
	"testing"

	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// formatChecked formats src and requires what fmt requires before it
// writes: the output parses, means the same, keeps every comment in order,
// and formats to itself.
func formatChecked(t *testing.T, src string) string {
	t.Helper()
	f, err := parser.ParseFile("in.machine", src)
	if err != nil {
		t.Fatalf("input does not parse: %v", err)
	}
	out := format.File(f)
	g, err := parser.ParseFile("out.machine", out)
	if err != nil {
		t.Fatalf("formatted text does not parse: %v\n--- formatted ---\n%s", err, out)
	}
	if err := format.Check(f, g); err != nil {
		t.Fatalf("%v\n--- formatted ---\n%s", err, out)
	}
	if again := format.File(g); again != out {
		t.Fatalf("formatting is not idempotent\n--- once ---\n%s\n--- twice ---\n%s", out, again)
	}
	return out
}
