package eval

import "testing"

// push keeps every item in order and, when full, at least doubles the
// room, so that a list made item by item is copied at most twice over
// (append, growing a long list by a quarter, copies it about four times).
func TestPushKeepsItemsAndDoublesRoom(t *testing.T) {
	for _, n := range []int{0, 1, 16, 17, 1000, 100_000} {
		var s []int
		copies := 0
		for i := range n {
			before := cap(s)
			s = push(s, i)
			if cap(s) != before {
				copies += before
				if before > 0 && cap(s) < 2*before {
					t.Fatalf("n=%d: room grew from %d to %d, want at least double", n, before, cap(s))
				}
			}
		}
		if len(s) != n {
			t.Fatalf("n=%d: %d items", n, len(s))
		}
		for i, v := range s {
			if v != i {
				t.Fatalf("n=%d: item %d is %d", n, i, v)
			}
		}
		if copies > 2*n {
			t.Errorf("n=%d: %d items copied in growing, want at most %d", n, copies, 2*n)
		}
	}
}
