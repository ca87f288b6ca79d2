package reference

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/golden"
)

// TestGrammarEBNF keeps grammar.ebnf in step with the grammar; -update
// rewrites the generated part.
func TestGrammarEBNF(t *testing.T) {
	const path = "../../../grammar.ebnf"
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
		t.Errorf("grammar.ebnf is out of date with the grammar; run go test ./parser/internal/reference -run GrammarEBNF -update\n--- grammar ---\n%s", want)
	}
}

// TestNotInBinary holds that the parasol binary does not link the
// reference grammar or participle: it reads files with the hand-written
// parser alone.
func TestNotInBinary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/parasol-lang/parasol/cmd/parasol").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/alecthomas/participle") || pkg == "github.com/parasol-lang/parasol/parser/internal/reference" {
			t.Errorf("cmd/parasol depends on %s", pkg)
		}
	}
}
