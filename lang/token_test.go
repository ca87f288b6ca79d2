package lang

import (
	"slices"
	"testing"
)

func TestKeywordTable(t *testing.T) {
	words := Keywords()
	if len(words) < 20 {
		t.Fatalf("only %d keywords: %v", len(words), words)
	}
	for i, w := range words {
		if slices.Contains(words[:i], w) {
			t.Errorf("keyword %s is listed twice", w)
		}
		if k, ok := Keyword(w); !ok || k.String() == "not a keyword" {
			t.Errorf("Keyword(%q) = %v, %v", w, k, ok)
		}
		if !IsIdent(w) || IsKeyword(w+"s") {
			t.Errorf("%q: a keyword must be an identifier, and a longer word is a name", w)
		}
	}
	words[0] = "changed"
	if Keywords()[0] == "changed" {
		t.Error("Keywords returned the table itself")
	}
	for _, name := range []string{"", "x", "processor", "iff", "Machine", "extends_"} {
		if IsKeyword(name) {
			t.Errorf("IsKeyword(%q) = true", name)
		}
	}
}

func TestOperatorTable(t *testing.T) {
	binary := 0
	for o := Or; o <= Not; o++ {
		text := o.String()
		b, isBinary := BinaryOp(text)
		p, isPrefix := PrefixOp(text)
		if !isBinary && !isPrefix || isBinary && b != o || isPrefix && p != o {
			t.Errorf("%s reads back as binary %v %v, prefix %v %v", text, b, isBinary, p, isPrefix)
		}
		if isBinary {
			binary++
			if o.Precedence() <= 0 {
				t.Errorf("binary %s has precedence %d", o, o.Precedence())
			}
		}
		// A symbol is one token of the lexer; a word is a keyword.
		if IsIdent(text) {
			if k, _ := Keyword(text); k != WordOperator {
				t.Errorf("operator %s is not a keyword of kind operator", text)
			}
		} else if Symbol(text) != len(text) {
			t.Errorf("operator %s reads as a symbol of %d bytes", text, Symbol(text))
		}
	}
	if binary != 13 {
		t.Errorf("%d binary operators, want 13", binary)
	}
	if NoOp.String() != "?" || Op(200).String() != "?" || Op(200).Precedence() != 0 {
		t.Error("an invalid operator must print as ? with no precedence")
	}
	// -2^2 is -(2^2); a*b+c is (a*b)+c; comparisons below arithmetic.
	if !(Pow.Precedence() > UnaryPrecedence && UnaryPrecedence > Mul.Precedence() &&
		Mul.Precedence() > Add.Precedence() && Add.Precedence() > Lt.Precedence() &&
		Lt.Precedence() > And.Precedence() && And.Precedence() > Or.Precedence()) {
		t.Error("precedences out of order")
	}
}
