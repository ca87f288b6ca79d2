package format_test

import (
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// Check tells a change of meaning or of comments from a change of
// layout, and points at the first difference in the original.
func TestCheckFindsChanges(t *testing.T) {
	tests := []struct {
		name, orig, other string
		want              string // "" when the two mean the same
	}{
		{"layout and parentheses",
			"machine \"m\" { x = ((1 + 2)) * 3; b = (true) # c\n link(d) { latency = 1ns } }",
			"machine \"m\" {\n\tx = (1 + 2) * 3\n\tb = true # c\n\tlink(d) {\n\t\tlatency = 1ns\n\t}\n}\n", ""},
		{"an empty else or link body",
			"machine \"m\" { topology t = ring(2) { if true { link 0 -- 1 {} } else {} } }",
			"machine \"m\" { topology t = ring(2) { if true { link 0 -- 1 } } }", ""},
		{"an operator",
			"machine \"m\" {\n\tx = 1 + 2\n}\n", "machine \"m\" {\n\tx = 1 - 2\n}\n",
			`in.machine:2:8: formatting would change the meaning here: Binary.Op: "+" became "-"`},
		{"a number's spelling",
			"machine \"m\" {\n\tx = 1000ns\n}\n", "machine \"m\" {\n\tx = 1us\n}\n",
			`in.machine:2:6: formatting would change the meaning here: NumberLit.Text: "1000ns" became "1us"`},
		{"a statement dropped",
			"machine \"m\" {\n\tx = 1\n\ty = 2\n}\n", "machine \"m\" {\n\tx = 1\n}\n",
			"in.machine:1:1: formatting would change the meaning here: Machine.Body: 2 items became 1"},
		{"a function that became a field",
			"machine \"m\" {\n\tf() = 1\n}\n", "machine \"m\" {\n\tf = 1\n}\n",
			"in.machine:2:2: formatting would change the meaning here: Field.Params: a parameter list was added or dropped"},
		{"a statement of another kind",
			"machine \"m\" {\n\tparam x = 1\n}\n", "machine \"m\" {\n\tx = 1\n}\n",
			"in.machine:2:8: formatting would change the meaning here: Field.IsParam: true became false"},
		{"a comment dropped",
			"machine \"m\" {\n\tx = 1 # one\n\t# two\n}\n", "machine \"m\" {\n\tx = 1 # one\n}\n",
			"in.machine:3:2: formatting would lose or move this comment"},
		{"comments reordered",
			"# one\n# two\nmachine \"m\" {}\n", "# two\n# one\nmachine \"m\" {}\n",
			"in.machine:1:1: formatting would lose or move this comment"},
		{"a comment added",
			"machine \"m\" {}\n", "machine \"m\" {} # new\n",
			"in.machine: formatting would add a comment: # new"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := parser.ParseFile("in.machine", tt.orig)
			if err != nil {
				t.Fatal(err)
			}
			b, err := parser.ParseFile("out.machine", tt.other)
			if err != nil {
				t.Fatal(err)
			}
			err = format.Check(a, b)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("want no difference, got %v", err)
			case tt.want != "" && err == nil:
				t.Errorf("want %q, got no difference", tt.want)
			case tt.want != "" && !strings.HasPrefix(err.Error()+"\n", tt.want+"\n"):
				t.Errorf("got\n%v\nwant\n%s", err, tt.want)
			}
		})
	}
}
