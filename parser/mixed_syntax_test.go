package parser

import (
	"strings"
	"testing"
)

// A file with both a Parasol I header line and a modern machine block gets
// one error, at the first line of the syntax that comes second, saying the
// file mixes them, not an error per line of one read as the other.
func TestMixedSyntaxIsOneErrorAtTheSecondSyntax(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"modern first", "machine m {\n  param x = 1\n}\n\n  machinename = \"old\"\nprocessor = t800\nlinknumber = 4\n",
			"m.machine:5:3: a Parasol I machine (machinename = …) in a file in the modern syntax (machine block at line 1)"},
		{"legacy first", "# old\nmachinename = \"old\"\nprocessor = t800\nmachine m {\n  param x = 1\n}\n",
			"m.machine:4:1: a modern machine block in a Parasol I file (machinename = … at line 2)"},
	} {
		_, err := ParseFile("m.machine", c.text)
		if err == nil {
			t.Errorf("%s: parsed", c.name)
			continue
		}
		got := err.Error()
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %q, want it to start %q", c.name, got, c.want)
		}
		if n := strings.Count(got, "m.machine:"); n != 1 {
			t.Errorf("%s: %d errors, want 1:\n%s", c.name, n, got)
		}
	}
	// One syntax alone, and a comment or a word that merely starts with
	// machine, are no mixture.
	for _, text := range []string{
		"machine m {\n  param machinename_x = 1\n}\n# machinename = \"x\"\n",
		"machinename = \"old\"\nprocessor = t800\n# machine m {\n",
	} {
		if _, err := ParseFile("m.machine", text); err != nil && strings.Contains(err.Error(), "a file is in one syntax") {
			t.Errorf("%q: %v", text, err)
		}
	}
}
