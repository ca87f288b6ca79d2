package slab

import "testing"

// Records stay where they were handed out, and lists cannot grow into
// their neighbours.
func TestSlabsKeepWhatTheyHandOut(t *testing.T) {
	var recs []int
	var ptrs []*int
	for i := range 1000 {
		p := Take(&recs, 64)
		if *p != 0 {
			t.Fatalf("record %d is %d, want zero", i, *p)
		}
		*p = i
		ptrs = append(ptrs, p)
	}
	for i, p := range ptrs {
		if *p != i {
			t.Fatalf("record %d became %d", i, *p)
		}
	}
	if cap(recs) > 64 {
		t.Errorf("a slab of %d records, want at most 64", cap(recs))
	}

	var items []int
	a := Copy(&items, []int{1, 2, 3}, 1024)
	b := Copy(&items, []int{4, 5}, 1024)
	a = append(a, 9)
	if len(b) != 2 || b[0] != 4 || b[1] != 5 || len(a) != 4 || a[3] != 9 {
		t.Errorf("a = %v, b = %v after appending to a; want b untouched", a, b)
	}
	if Copy(&items, nil, 1024) != nil || Room(&items, 0, 1024) != nil {
		t.Error("an empty list is not nil")
	}
	if big := Room(&items, 5000, 1024); cap(big) != 5000 || len(big) != 0 {
		t.Errorf("room for 5000 has len %d cap %d", len(big), cap(big))
	}
}

// Push keeps every item in order and, when full, at least doubles the
// room, so that a list made item by item is copied at most twice over
// (append, growing a long list by a quarter, copies it about four times).
func TestPushKeepsItemsAndDoublesRoom(t *testing.T) {
	for _, n := range []int{0, 1, 16, 17, 1000, 100_000} {
		var s []int
		copies := 0
		for i := range n {
			before := cap(s)
			s = Push(s, i)
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
