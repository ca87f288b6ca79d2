package parser

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/swar"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
)

// legacyAgreement reads text as a Parasol I file twice, plain lines split
// by plainLine and then every line by the general reader, and describes
// how the two trees or errors differ ("" when they agree).
func legacyAgreement(text string) string {
	fast, fastErr := readLegacy(lang.NewSource("in.machine", text), false)
	general, generalErr := readLegacy(lang.NewSource("in.machine", text), true)
	if es, eg := errText(fastErr), errText(generalErr); es != eg {
		return "errors differ:\n--- plain lines split on their own ---\n" + es + "\n--- every line read in general ---\n" + eg
	}
	if !reflect.DeepEqual(fast, general) {
		return "trees differ:\n--- plain lines split on their own ---\n" + format.File(fast) + "\n--- every line read in general ---\n" + format.File(general)
	}
	return ""
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A line of blanks, printable ASCII and at most a carriage return before its
// newline is split without the general reader's trimming: the tree and the
// errors, positions included, are the ones the general reader gives.
func TestLegacyPlainLinesReadAsTheGeneralReaderReadsThem(t *testing.T) {
	const head = "machinename = \"m\"\nprocessor = 1\ntopology = 100\n"
	tests := []struct{ name, lines string }{
		{"link block", "linknumber = 0\nlinkio = 0\nlinklatency = 230\nlinkspeed = 2667231\nprocs_connected = 2\nprocessortype0 = 1\nprocessornumber = 0\nprocessortype1 = 1\nprocessornumber = 1\n"},
		{"one space either side of '=', and almost", "linknumber = 0\na = 1\nab = 12\na = 1 \n a = 1\na  = 1\na =  1\na\t= 1\na = \t1\n= = 1\na = =\n  = 1\na =  \n"},
		{"key = digits, and almost", "linknumber = 0\na<b = 5\na=b = 5\na\\b = 5\na~ = 5\n_x9 = 0123\nk = 123456789012345\nk2 = 1234567890123456\nk3 = 5x\nk4 = 5 \nk5 = 5\r\nk6 = -5\nk7 = 5.\n" +
			"a_very_long_key_of_many_words = 7\nab.c = 5\nf(x) = 5\nfx) = 5\nk8 =5\nk9= 5\nk10 = \nk11 = 5 5\nlinknumber = 3\nprocessor = 2\ntopology = 100\nlinknumber = 4\nmodelsection = 5\nlinkio = 1"},
		{"whole numbers of every length", "linknumber = 0\na = 1\nb = 12\nc = 123\nd = 1234\ne = 12345\nf = 123456\ng = 1234567\nh = 12345678\ni = 123456789\nj = 9999999\nk = 0000000\nl = 0000001\nm = 1234567\n9 = 7654321"},
		{"key = digits before any machine", "k = 5\nlinknumber = 1\nprocessor = 3\nmachinename = 7\nk = 5\n"},
		{"blanks around key and value", "linknumber =  7 \n \tlinkspeed\t=\t5\t \n  linkio=0\n"},
		{"carriage returns before newlines", "linknumber = 0\r\nlinkspeed = 5\r\n\r\nlinkio = 1\r"},
		{"carriage return inside a line", "linknumber = 0\nlinkspeed = 5\r5\nlinkio = 1\r \n"},
		{"blank lines", "\n \n\t\t\n\r\n \r\n"},
		{"no key", "linknumber = 0\n = 5\n\t=5\n"},
		{"no value", "linknumber = 0\nlinkspeed =\nlinkio = \t\r\n"},
		{"two equals signs", "linknumber = 0\nlinkspeed = = 5\nlinkio == 1\na = b = c\n"},
		{"values that are not whole numbers", "linknumber = 0\nlinkspeed = 20.\nlinklatency = 1.e+3\nlinkio = -1\nx = 2*y\ny = 1234567890123456789\nz = 23x0\n"},
		{"headers", "linknumber = 0\nlinkspeed = 5\nlinknumber = 01\nlinknumber = x y\nlinknumber = -1\nfloat_timings\nbogus\nmodelsection = S\nf(n: B) = n\n"},
		{"comments and strings", "linknumber = 0 # first\nlinkspeed = 5\\# typeset\nname = \"a # b\"\n# only\n"},
		{"non-ASCII", "linknumber = 0\nlinkïo = 5\nlinkspeed = 5 # é\n"},
		{"control bytes", "linknumber = 0\nlinkspeed = \v5\nlinkio = 5\f\n"},
		{"before any machine", "linkspeed = 5\nprocessor = 1\n"},
		{"no newline at the end", "linknumber = 0\nlinkspeed = 5"},
	}
	for _, tt := range tests {
		for _, text := range []string{head + tt.lines, tt.lines} {
			if d := legacyAgreement(text); d != "" {
				t.Errorf("%s: %s\n--- input ---\n%s", tt.name, d, text)
			}
		}
	}
}

// FuzzLegacyPlainLines checks on any text that splitting plain lines on
// their own gives the tree and errors the general reader gives.
func FuzzLegacyPlainLines(f *testing.F) {
	f.Add("machinename = \"m\"\nprocessor = 1\ntopology = 100\nlinknumber = 0\nlinkio = 0\nlinkspeed = 2667231\r\nprocessortype0 = 1\nprocessornumber = 0\n")
	f.Add("machinename = \"m\"\n \tkey\t= \t5 \r\n = 1\nk =\n\r\n#c\na = b = 1\nf(n) = n\n")
	f.Add("machinename = \"m\"\nlinkïo = 5\nx = \v5\ny = 5\r5\nz = 20.\n")
	f.Fuzz(func(t *testing.T, text string) {
		if !strings.Contains(text, "machinename") {
			text = "machinename = \"m\"\n" + text
		}
		if d := legacyAgreement(text); d != "" {
			t.Fatalf("%s\n--- input ---\n%q", d, text)
		}
	})
}

// scanLine, eight bytes at a time, finds what a look at every byte finds:
// any byte at any place of a line, before its newline, after it, or at the
// end of the text.
func TestLineScanningFindsWhatEveryByteShows(t *testing.T) {
	want := func(text string) (end, eq int, plain bool) {
		end, eq, plain = len(text), -1, true
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			end = i
		}
		for i := 0; i < end; i++ {
			switch c := text[i]; {
			case c == '=' && eq < 0:
				eq = i
			case c == '\r':
				plain = plain && i == end-1
			case c == '#' || c == '"' || c == '\\':
				plain = false
			case c != '\t' && (c < ' ' || c >= 0x7f):
				plain = false
			}
		}
		return end, eq, plain
	}
	for n := 1; n <= 20; n++ {
		for at := 0; at < n; at++ {
			for c := 0; c < 256; c++ {
				for _, tail := range []string{"", "\nx = 1\n"} {
					b := []byte(strings.Repeat("k = 12", 4)[:n])
					b[at] = byte(c)
					text := string(b) + tail
					e, q, p := scanLine(text, 0)
					we, wq, wp := want(text)
					if e != we || q != wq || p != wp {
						t.Errorf("scanLine(%q) = %d, %d, %v; want %d, %d, %v", text, e, q, p, we, wq, wp)
					}
				}
			}
		}
	}
}

// Link blocks of every length, of plain numbers or not, one after another
// (some held in one piece, some not, some longer than a piece) keep their
// fields in order, and a block's body grows without overwriting another's.
func TestLegacyLinkBlocksOfEveryShapeKeepTheirFields(t *testing.T) {
	var text strings.Builder
	text.WriteString("machinename = \"m\"\nprocessor = 1\ntopology = 100\n")
	var want [][]string
	for link := 0; link < 60; link++ {
		fmt.Fprintf(&text, "linknumber = %d\n", link)
		var fields []string
		for k := 0; k < link%13; k++ {
			line := fmt.Sprintf("f%d = %d", k, 100*link+k)
			if (link/13)%2 == 1 && k%3 == 1 {
				line = fmt.Sprintf("f%d = %d * 2", k, 100*link+k) // not a plain number
			}
			text.WriteString(line + "\n")
			fields = append(fields, line)
		}
		want = append(want, fields)
	}
	file, err := ParseFile("links.machine", text.String())
	if err != nil {
		t.Fatal(err)
	}
	topo := file.Stmts[0].(*lang.Machine).Body[1].(*lang.Block)
	var blocks []*lang.Block
	for _, s := range topo.Body {
		blocks = append(blocks, s.(*lang.Block))
	}
	if len(blocks) != len(want) {
		t.Fatalf("%d link blocks, want %d", len(blocks), len(want))
	}
	// Grown, a body must not overwrite the next block's.
	extra := &lang.Field{Name: "extra", Value: &lang.NumberLit{Text: "1"}}
	for _, b := range blocks {
		b.Body = append(b.Body, extra)
	}
	for i, b := range blocks {
		var got []string
		for _, s := range b.Body[:len(b.Body)-1] {
			f := s.(*lang.Field)
			got = append(got, f.Name+" = "+format.Expr(f.Value))
		}
		if strings.Join(got, "\n") != strings.Join(want[i], "\n") || b.Label != fmt.Sprint(i) {
			t.Errorf("link %s has\n%s\nwant link %d with\n%s", b.Label, strings.Join(got, "\n"), i, strings.Join(want[i], "\n"))
		}
	}
}

// digits8 reads the digits numberLine finds in one word as the number they
// write, for every count of digits it reads that way and every digit in
// every place.
func TestDigitsReadAsOneWordAreTheNumberWritten(t *testing.T) {
	for k := 1; k <= 7; k++ {
		for place := 0; place < k; place++ {
			for d := byte('0'); d <= '9'; d++ {
				b := []byte(strings.Repeat("5", k))
				b[place] = d
				want, _ := strconv.ParseUint(string(b), 10, 64)
				w := swar.Load8(string(b)+"\n = 9876543", 0)
				if got := digits8((w - '0'*swar.Low) << (64 - 8*k)); got != want {
					t.Errorf("digits8 of %q = %d, want %d", b, got, want)
				}
			}
		}
	}
}
