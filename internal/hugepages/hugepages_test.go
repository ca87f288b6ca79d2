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
