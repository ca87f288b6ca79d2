package hugepages

import "testing"

// Make gives what make gives, large or small: the length and capacity
// asked for, every element zero, and room to append within it.
func TestMakeIsMake(t *testing.T) {
	for _, c := range []struct{ n, c int }{{0, 0}, {3, 10}, {1 << 20, 1 << 20}, {5, 3 << 20}} {
		s := Make[int64](c.n, c.c)
		if len(s) != c.n || cap(s) != c.c {
			t.Fatalf("Make(%d, %d): len %d cap %d", c.n, c.c, len(s), cap(s))
		}
		for i, v := range s {
			if v != 0 {
				t.Fatalf("Make(%d, %d)[%d] = %d, want 0", c.n, c.c, i, v)
			}
		}
		s = append(s, 7)
		if s[len(s)-1] != 7 {
			t.Fatalf("append after Make(%d, %d) lost its value", c.n, c.c)
		}
	}
}

// Trim keeps every element up to the length, the one whose last bytes
// share a page with the capacity given back included; past the length it
// reads zeros, and appending still works.
func TestTrimKeepsTheElements(t *testing.T) {
	for _, n := range []int{0, 1, 170, 171, 100_000, 3 << 20 / 24} {
		s := Make[[3]int64](0, 5<<20/24)
		for i := range n {
			s = append(s, [3]int64{int64(i) + 1, -int64(i), 7})
		}
		Trim(s)
		for i, v := range s {
			if v != [3]int64{int64(i) + 1, -int64(i), 7} {
				t.Fatalf("length %d: element %d is %v after Trim", n, i, v)
			}
		}
		for i, v := range s[len(s):cap(s)] {
			if v != [3]int64{} {
				t.Fatalf("length %d: element %d past the length is %v, want zeros", n, len(s)+i, v)
			}
		}
		s = append(s, [3]int64{9, 9, 9})
		if s[n] != [3]int64{9, 9, 9} {
			t.Fatalf("length %d: append after Trim lost its value", n)
		}
	}
}
