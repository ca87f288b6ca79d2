package main

import "testing"

// The processors a mapping uses are its distinct ids, whether it
// increases (counted without a copy) or not; the mapping is left as it
// was.
func TestProcessorsUsedCountsDistinctProcessors(t *testing.T) {
	for _, c := range []struct {
		mapping []int
		want    int
	}{
		{nil, 0},
		{[]int{7}, 1},
		{[]int{0, 1, 2, 3}, 4},
		{[]int{0, 2, 5, 9}, 4},
		{[]int{0, 0, 1, 1}, 2},
		{[]int{3, 2, 1, 0}, 4},
		{[]int{0, 1, 1, 2}, 3},
		{[]int{5, 5, 5}, 1},
		{[]int{1, 0, 1, 0, 2}, 3},
	} {
		before := append([]int(nil), c.mapping...)
		if got := processorsUsed(c.mapping); got != c.want {
			t.Errorf("processorsUsed(%v) = %d, want %d", c.mapping, got, c.want)
		}
		for i := range before {
			if c.mapping[i] != before[i] {
				t.Fatalf("processorsUsed changed its mapping: %v, was %v", c.mapping, before)
			}
		}
	}
}
