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

// The Parasol I reader checks only the lines that are not plain ASCII, as
// it reads them; it refuses a file with the one error checkText gives for
// the whole text, wherever the bad byte falls, even after lines that hold
// syntax errors of their own, and with non-ASCII text before it.
func TestParasolIReaderRefusesWhatCheckTextRefuses(t *testing.T) {
	head := "machinename = \"m\"\nprocessor = 1\n"
	for _, bad := range []string{"\x00", "\xff", "\xc3", "\xe2\x82"} {
		for _, tail := range []string{
			"",
			"\nname = 1",
			"x = 1\n",
		} {
			for _, before := range []string{
				"",
				"unknownheader\n",
				"note = \"µs\" # µ\n",
				"# a comment\n\tlatency = 2 \r\n",
			} {
				for off := 0; off < 12; off++ {
					text := head + before + "k = " + strings.Repeat("7", off) + bad + tail
					if !IsLegacy(text) {
						t.Fatalf("%q is not read as Parasol I", text)
					}
					want := checkText(lang.NewSource("t.machine", text))
					if want == nil {
						t.Fatalf("%q: checkText accepts it", text)
					}
					f, err := ParseFile("t.machine", text)
					if f != nil || err == nil || err.Error() != want.Error() {
						t.Errorf("%q: got %v (file %v), want only %v", text, err, f != nil, want)
					}
				}
			}
		}
	}
}
