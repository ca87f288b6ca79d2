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
