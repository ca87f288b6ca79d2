package parser

import (
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// A call's span ends at its closing parenthesis even when its last
// argument has parentheses of its own, which the AST does not keep.
func TestCallEndsAtItsClosingParenthesis(t *testing.T) {
	for _, text := range []string{
		"f(x)",
		"f((1))",
		"f(2 * (1us))",
		"max(1, (2))",
		`f("a)", (1))`,
		"f(g(h((1))))",
		"f( (1) )",
	} {
		e, err := ParseExpr("e", text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if end := lang.End(e); end.Offset != len(text) {
			t.Errorf("%s ends at offset %d, want %d", text, end.Offset, len(text))
		}
	}
}
