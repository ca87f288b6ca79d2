package parser

import (
	"strings"
	"testing"
)

// A trace with no messages is refused where it ends, whether it is empty
// or a header alone: it would be a schedule of no ranks.
func TestTraceWithoutMessagesIsRefused(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "t.csv:1:1: no messages: a trace is CSV with a header line"},
		{"# nothing yet\n", "t.csv:1:1: no messages: a trace is CSV"},
		{"time,src,dst,bytes\n", "t.csv:1:1: no messages: the header is followed by no message lines"},
		{"time,src,dst,bytes\n\n# later\n", "t.csv:3:1: no messages: the header is followed by no message lines"},
	} {
		s, err := ReadTrace(strings.NewReader(tc.text), "t.csv", 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: schedule %v, error %v; want %q", tc.text, s, err, tc.want)
		}
	}
}
