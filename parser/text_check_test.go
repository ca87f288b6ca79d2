package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// A NUL byte or invalid UTF-8 anywhere in a file, wherever it falls among
// the bytes read eight at a time, is reported once at its own position;
// text around it, ASCII or not, is accepted.
func TestCheckTextFindsTheFirstBadByteAtAnyOffset(t *testing.T) {
	for _, bad := range []struct {
		name, b, msg string
	}{{"NUL", "\x00", "NUL byte"}, {"invalid UTF-8", "\xff", "invalid UTF-8 (byte 0xff)"}} {
		for _, lead := range []string{"", "µ"} {
			for off := 0; off < 20; off++ {
				t.Run(fmt.Sprintf("%s after %q at %d", bad.name, lead, off), func(t *testing.T) {
					text := lead + strings.Repeat("x", off) + bad.b + strings.Repeat("y", 17)
					_, err := ParseFile("t.machine", text)
					want := fmt.Sprintf("t.machine:1:%d: %s", 1+len([]rune(lead))+off, bad.msg)
					if err == nil || !strings.HasPrefix(err.Error(), want) {
						t.Errorf("got %v, want an error starting %q", err, want)
					}
				})
			}
		}
	}
	for _, text := range []string{"x = 1\n", "x = \"µs\"\n", strings.Repeat("# 0123456789abcdef\n", 3) + "x = 1"} {
		if d := checkText(lang.NewSource("t.machine", text)); d != nil {
			t.Errorf("%q: %v, want no error", text, d)
		}
	}
}
