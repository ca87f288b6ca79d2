package eval

import (
	"strings"
	"testing"
)

// A count beyond what a topology takes says it is too large and names the
// limit, where it said "expected a whole number" of a whole number; a
// fraction still says a whole number is expected.
func TestTopologyCountsBeyondTheLimitNameIt(t *testing.T) {
	for _, c := range []struct{ n, want string }{
		{"1e18", "1e+18 is too large: a count or node id is at most 1099511627776 (2^40)"},
		{"1099511627777", "1099511627777 is too large: a count or node id is at most 1099511627776 (2^40)"},
		{"-1e18", "-1e+18 is too small: a count or node id is at least -1099511627776 (-2^40)"},
		{"2.5", "expected a whole number, got 2.5"},
	} {
		var err string
		if _, e := LoadSource("m.machine", "machine m {\n  topology t = ring("+c.n+") { latency = 1ns }\n}\n"); e != nil {
			err = e.Error()
		}
		if !strings.Contains(err, "2:21: "+c.want) {
			t.Errorf("ring(%s): got %q, want %q at 2:21", c.n, err, c.want)
		}
		if c.n != "2.5" && strings.Contains(err, "whole number") {
			t.Errorf("ring(%s): %q says a whole number is expected", c.n, err)
		}
	}
}
