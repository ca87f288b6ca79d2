package main

import (
	"slices"
	"testing"

	"github.com/parasol-lang/parasol/eval"
)

// Tab after an enumerated field's "=" offers the registry's words, whole
// (hyphens included); elsewhere the machine's names, the generators and
// the keywords of an expression.
func TestCompletionOffersTheWordsAFieldTakes(t *testing.T) {
	m, err := eval.Load("../../examples/xmp64.machine")
	if err != nil {
		t.Fatal(err)
	}
	c := completer{&repl{m: m}}
	for _, tt := range []struct {
		line string
		want string // one of the completions
		not  string // not among them
	}{
		{"routing = short-q", "ueue", ""},
		{"topology(main).switching=wo", "rmhole", ""},
		{"arbitration = ", "roundrobin", "wormhole"},
		{"routing = ", "first-ready", "saf"},
		{"h_o", "ff", ""},
		{"hyperc", "ube(", ""},
		{"x = h_", "in", "ecube"},
		{"if h_off > 1 th", "en", ""},
		{"1 + su", "m", ""},
		{"pro", "", "gram"},
		// The commands the REPL runs complete their flags and the words
		// a flag takes.
		{":si", "m ", ""},
		{":", "compare ", ""},
		{":sim --o", "p ", ""},
		{":sim --op tr", "anspose", ""},
		{":sim --routing ", "dor", "--json "},
		{":route --ch", "eck ", ""},
		{":draw --format ", "svg", ""},
		{":compare MPI.barrier --", "json ", "check "},
		{":sim --size ", "", "--json "},
	} {
		got, _ := c.Do([]rune(tt.line), len([]rune(tt.line)))
		var words []string
		for _, g := range got {
			words = append(words, string(g))
		}
		if tt.want != "" && !slices.Contains(words, tt.want) || tt.not != "" && slices.Contains(words, tt.not) {
			t.Errorf("%q completes to %q; want %q among them and not %q", tt.line, words, tt.want, tt.not)
		}
	}
}
