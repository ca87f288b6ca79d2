package main

import (
	"slices"
	"testing"
)

// A :command's arguments split as a shell splits them, so that a command
// line pasted into the REPL means what it meant.
func TestCommandArgumentsSplitAsAShellSplitsThem(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
		err  bool
	}{
		{"", nil, false},
		{"  --op  send\t--size 4KB ", []string{"--op", "send", "--size", "4KB"}, false},
		{`--set 'topology(r).speed = 5MB/s'`, []string{"--set", "topology(r).speed = 5MB/s"}, false},
		{`--set "name = \"a b\"" x`, []string{"--set", `name = "a b"`, "x"}, false},
		{`--set n=\ 4`, []string{"--set", "n= 4"}, false},
		{`'' x`, []string{"", "x"}, false},
		{`a'b c'd`, []string{"ab cd"}, false},
		{`'\n'`, []string{`\n`}, false},
		{`--set 'n=4`, nil, true},
		{`--set "n=4`, nil, true},
	} {
		got, err := splitWords(tt.in)
		if (err != nil) != tt.err || !slices.Equal(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}
