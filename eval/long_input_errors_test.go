package eval

import (
	"strings"
	"testing"
)

// TestHugeNamesAndLiteralsGiveShortErrorsPromptly: a megabyte identifier
// or a 100,000-digit literal is an error at once (suggestions were
// quadratic in the name's length: a megabyte took minutes), and the error
// quotes an excerpt, not the whole input.
func TestHugeNamesAndLiteralsGiveShortErrorsPromptly(t *testing.T) {
	m, err := LoadSource("m.machine", `machine "m" {
	param h_in = 70ns
	processor cpu { clock = 400MHz }
	modelsection M { send(n) = n * 1ns }
}`)
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("h", 1<<20)
	tests := []struct{ query, want string }{
		{huge, "<query>:1:1: unknown name hhhhh"},
		{"h_in + " + huge, "<query>:1:8: unknown name hhhhh"},
		{"processor(cpu)." + huge, "has no field hhhhh"},
		{"processor(" + huge + ").clock", "no processor hhhhh"},
		{"M." + huge + "(1)", "M has no field hhhhh"},
		{strings.Repeat("1", 100_000), "is too large"},
	}
	for _, tt := range tests {
		_, err := m.Eval(tt.query)
		if err == nil {
			t.Errorf("%.40s…: no error", tt.query)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tt.want) || !strings.Contains(msg, "…") {
			t.Errorf("%.40s…: error\n%.500s\nwant it to contain %q and an excerpt", tt.query, msg, tt.want)
		}
		if len(msg) > 1000 {
			t.Errorf("%.40s…: the error is %d bytes:\n%.500s", tt.query, len(msg), msg)
		}
	}
	// The same in a file, where the name is also what --set would name.
	_, err = LoadSource("m.machine", "machine \"m\" {\n\tparam a = "+huge+" + 1\n}\n")
	if err == nil || !strings.Contains(err.Error(), "m.machine:2:12: unknown name hhhh") || len(err.Error()) > 1000 {
		t.Errorf("a huge name in a file: %.500v", err)
	}
}
