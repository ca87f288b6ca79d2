package eval

import "testing"

// Ids given in any order, negative, huge or first too large for the slice
// and later within it, keep the index of their first mention.
func TestIDIndexKeepsEveryIDsIndex(t *testing.T) {
	for _, tc := range []struct {
		name string
		ids  []int
	}{
		{"counting up", []int{0, 1, 2, 3, 4}},
		{"counting down", []int{4000, 3999, 2, 1, 0}},
		{"negative and huge", []int{-1, 1 << 40, 5, -7, 1 << 20}},
		{"sparse ids the slice grows over", []int{5000, 3000, 0, 1, 2, 4999, 2999, 6000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var x idIndex
			want := map[int]int{}
			for _, id := range tc.ids {
				if _, seen := x.get(id); seen {
					t.Fatalf("id %d found before it was set", id)
				}
				x.set(id, len(want))
				want[id] = len(want)
			}
			// Many more ids grow the slice past the early large ones.
			for id := 0; id < 12_000; id++ {
				if _, set := want[id]; !set && id != 7 {
					x.set(id, len(want))
					want[id] = len(want)
				}
			}
			for id, i := range want {
				if got, seen := x.get(id); !seen || got != i {
					t.Errorf("id %d: index %d (seen %v), want %d", id, got, seen, i)
				}
			}
			if len(x.dense) < 6001 {
				t.Errorf("the slice covers ids below %d; want it grown past 6000", len(x.dense))
			}
			if _, seen := x.get(7); seen {
				t.Error("id 7 was never set but is found")
			}
		})
	}
}
