package eval

import (
	"slices"
	"testing"
)

// A function's notes are the "note:" lines of the comment block directly
// above it, continued by the lines after them; other comment lines, a
// comment separated by a blank line and a trailing comment are not notes.
func TestFuncNotes(t *testing.T) {
	m, err := LoadSource("notes.machine", `# note: not the comment of any function

machine "m" {
	processor p {
		name = "p"
	}
	topology t {
		node 0 .. 1 = p
		link 0 -- 1
		speed = 1MB/s
	}
	# note: a far comment

	# what it costs
	# note: the simulation leaves out
	#   the arithmetic
	// note: and a second note
	a(n: B) = n * 1us / 1B # note: trailing, not a note
	b(n: B) = n * 1us / 1B
	# plain comment
	c(n: B) = n * 1us / 1B
}
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fn   string
		want []string
	}{
		{"a", []string{"the simulation leaves out the arithmetic", "and a second note"}},
		{"b", nil},
		{"c", nil},
	} {
		f, err := m.Func(c.fn)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Notes(); !slices.Equal(got, c.want) {
			t.Errorf("%s: notes %q, want %q", c.fn, got, c.want)
		}
	}
}
