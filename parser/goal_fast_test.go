package parser

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// spaced is text with every blank doubled: no line of it is in the form
// fastLine reads, so the general reader reads all of it.
func spaced(text string) string { return strings.ReplaceAll(text, " ", "  ") }

// sameSchedule says how a and b differ, "" if they do not.
func sameSchedule(a, b *lang.Schedule) string {
	switch {
	case a.Ranks != b.Ranks:
		return "ranks"
	case !slices.Equal(a.Ops, b.Ops):
		return "operations"
	case !slices.Equal(a.Deps, b.Deps), !slices.Equal(a.DepStart, b.DepStart):
		return "dependencies"
	case !slices.Equal(a.RankStart, b.RankStart):
		return "rank starts"
	case !slices.Equal(a.Labels, b.Labels):
		return "labels"
	}
	return ""
}

// Lines in schedgen's form are read by fastLine and the same lines
// spaced otherwise by the general reader: the schedules are the same, for
// the schedgen schedules of the LogGOPSim agreement tests and for lines
// with every suffix, any source and tag, irequires, tags near an int32's
// limit and lines fastLine leaves to the general reader (a comment, a
// big tag, a label not l<n>, statements after a ';').
func TestReadGOALFastLinesReadAsTheGeneralReaderReadsThem(t *testing.T) {
	texts := map[string]string{"suffixes": `num_ranks 3
rank 0 {
l1: recv 8b from -1 tag -1 cpu 1 nic 0
l2: calc 100 cpu 2
l3: send 65536b to 2 tag 2147483647 nic 3
l4: send 0b to 1 cpu 0
l5: calc 0 nic 1
l6: send 1b to 2 tag 2147483648
l7: recv 1b from 2 tag 9223372036854775807
x: calc 7 // a comment
l8: calc 000012; l9: calc 1
l2 irequires l1
l3 requires l2
l9 requires l8
l10 requires l3
l10: recv 3b from 0 tag 4
x requires l10
}
rank 2 {
l1: calc 123456789012345678
l2: calc 1
l2 requires l1
}
`}
	dir := "../eval/program/testdata/goal"
	files, err := filepath.Glob(filepath.Join(dir, "*.goal"))
	if err != nil || len(files) < 10 {
		t.Fatalf("schedgen schedules in %s: %d, %v", dir, len(files), err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(f)] = string(b)
	}
	for name, text := range texts {
		t.Run(name, func(t *testing.T) {
			fast, err := ReadGOAL(strings.NewReader(text), name, 0)
			if err != nil {
				t.Fatal(err)
			}
			general, err := ReadGOAL(strings.NewReader(spaced(text)), name, 0)
			if err != nil {
				t.Fatal(err)
			}
			if d := sameSchedule(fast, general); d != "" || len(fast.Ops) == 0 {
				t.Errorf("%d operations; the %s differ between the two readings", len(fast.Ops), d)
			}
		})
	}
}

// Lines in schedgen's form whose values are wrong are reported by the
// general reader, at the value: fastLine leaves them to it.
func TestReadGOALFastLinesWithWrongValuesAreReported(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"l1: send 8b to 2 tag 0", "t.goal:3:16: rank 2 is out of range: num_ranks is 2, so ranks are 0 to 1"},
		{"l1: send 8b to -1 tag 0", "t.goal:3:16: a destination rank cannot be negative"},
		{"l1: recv 8b from 1 tag -2", "t.goal:3:24: a tag cannot be negative (only -1, any, is allowed)"},
		{"l1: calc 5 cpu 256", "t.goal:3:16: cpu 256 is out of range (0 to 255)"},
		{"l1: calc 5 tag 1", `t.goal:3:12: unexpected "tag" (expected the end of the line)`},
		{"l1: calc 99999999999999999999", "t.goal:3:10: a time in nanoseconds 99999999999999999999 is too large"},
		{"l1: calc 1\nl1: calc 2", "t.goal:4:5: label l1 is defined twice in rank 0 (first at line 3)"},
		{"l1: calc 1\nl1 requires l2", "t.goal:4:13: undefined label l2 in rank 0"},
		{"l1: calc 1\nl1 requires l1", "t.goal:4:1: l1 depends on itself"},
		// A dependency on a broken line's label is dropped, not reported.
		{"l1: send 8b to 9 tag 0\nl2: calc 1\nl2 requires l1\nl3 requires l1\nl3: calc 1", "t.goal:3:16: rank 9 is out of range"},
	} {
		text := "num_ranks 2\nrank 0 {\n" + tt.line + "\n}\n"
		_, err := ReadGOAL(strings.NewReader(text), "t.goal", 0)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Count(err.Error(), "t.goal:") != 1 {
			t.Errorf("%q: got %v\nwant %s alone", tt.line, err, tt.want)
		}
	}
}
