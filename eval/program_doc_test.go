package eval

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/registry"
)

// TestLanguageDocListsTheCollectives keeps the table of collectives and
// their algorithms in docs/LANGUAGE.md equal to the registry's; -update
// rewrites it.
func TestLanguageDocListsTheCollectives(t *testing.T) {
	var b strings.Builder
	b.WriteString("| collective | algorithms | what it does |\n|---|---|---|\n")
	for _, c := range registry.Collectives {
		b.WriteString("| `" + c.Signature + "` | " + strings.Join(c.Algorithms.Names(), ", ") + " | " + c.Doc + " |\n")
	}
	checkDocSection(t, "../docs/LANGUAGE.md", "collectives", b.String())
}

// checkDocSection fails unless the section of the document at path
// between the markers <!-- NAME: begin --> and <!-- NAME: end --> is got;
// with -update it rewrites the section instead.
func checkDocSection(t *testing.T, path, name, got string) {
	t.Helper()
	begin, end := "<!-- "+name+": begin -->\n", "<!-- "+name+": end -->\n"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q … %q section", path, strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	if doc[i+len(begin):j] == got {
		return
	}
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, []byte(doc[:i+len(begin)]+got+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the %s section of %s is out of date; run go test ./eval -run %s -update", name, path, t.Name())
}
