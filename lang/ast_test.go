package lang

import "testing"

func TestSkipLiteralStepsOverStringsAndComments(t *testing.T) {
	for _, tt := range []struct {
		text string
		i    int
		want int
	}{
		{`a "x{y" b`, 2, 6},     // the closing quote
		{`"a\"{" }`, 0, 5},      // past an escaped quote
		{"\"open\nx", 0, 5},     // an unclosed string ends at its line's end
		{"# c { }\nx", 0, 7},    // a comment ends at its newline
		{"a // c {\n}", 2, 8},   // so does a // comment
		{"# to the end", 0, 12}, // or at the end of the text
		{"a / b", 2, 2},         // a division is no comment
		{"x{", 1, 1},            // anything else is itself
		{`"a\`, 0, 3},           // an escape at the end stays in the text
	} {
		if got := SkipLiteral(tt.text, tt.i); got != tt.want {
			t.Errorf("SkipLiteral(%q, %d) = %d, want %d", tt.text, tt.i, got, tt.want)
		}
	}
}

// Brackets skips what SkipLiteral steps over.
func TestBracketsSkipsStringsAndComments(t *testing.T) {
	text := "f(\"(\", # )\n g(1)) )"
	if a, b := Brackets(text, 0, '(', ')'); a != 1 || b != 16 {
		t.Errorf("Brackets = %d, %d, want 1, 16", a, b)
	}
}
