package eval

import (
	"strconv"
	"testing"
)

// Children are found by label however their labels are written and in
// whatever order they come: numbers in canonical form or not, names, the
// empty label, numbers too large for the slice when they come.
func TestChildIndexFindsEveryLabel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels []string
	}{
		{"counting up", []string{"0", "1", "2", "3"}},
		{"large first", []string{"5000", "3000", "0", "1", "4999"}},
		{"not canonical", []string{"007", "7", "+1", "1", "-1", "1.0", "1e3", ""}},
		{"names", []string{"cpu", "gpu", "PVM", "a b"}},
		{"beyond a billion", []string{"1000000000", "999999999", "0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &object{kind: "topology"}
			want := map[string]*object{}
			add := func(label string) {
				if o.child("link", label) != nil {
					t.Fatalf("link %q found before it was added", label)
				}
				c := &object{kind: "link", label: label}
				o.addChild(c)
				want[label] = c
			}
			for _, l := range tc.labels {
				add(l)
			}
			// Many more children grow the slice past the early large ones.
			for k := 0; k < 6000; k++ {
				if l := strconv.Itoa(k); want[l] == nil && k != 42 {
					add(l)
				}
			}
			for l, c := range want {
				if got := o.child("link", l); got != c {
					t.Errorf("link %q: found %v, want %v", l, got, c)
				}
				if o.child("processor", l) != nil {
					t.Errorf("processor %q found, but only links were added", l)
				}
			}
			if o.child("link", "42") != nil {
				t.Error("link 42 was never added but is found")
			}
		})
	}
}
