package parser

import (
	"github.com/parasol-lang/parasol/internal/golden"
	"os"
	"strings"
	"testing"
)

// TestGrammarEBNF keeps grammar.ebnf in step with the parser.
func TestGrammarEBNF(t *testing.T) {
	const path = "../grammar.ebnf"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	const begin, end = "(* BEGIN generated *)\n", "(* END generated *)"
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the BEGIN/END generated markers", path)
	}
	want := EBNF() + "\n"
	if got := text[i+len(begin) : j]; got != want {
		if golden.Update() {
			if err := os.WriteFile(path, []byte(text[:i+len(begin)]+want+text[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("grammar.ebnf is out of date with the parser; run go test ./parser -run GrammarEBNF -update\n--- parser ---\n%s", want)
	}
}
