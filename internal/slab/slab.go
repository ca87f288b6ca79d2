// Package slab hands out records and short lists cut from larger
// allocations, for the loaders that make one or a few of them per line of a
// machine file: a file of a hundred thousand links then costs an
// allocation per few hundred records rather than several per link. What a
// slab hands out stays valid: a full slab is replaced, never reused.
package slab

// Take returns a zero T cut from *s, starting a new slab (twice the last,
// up to most records) when *s is full.
func Take[T any](s *[]T, most int) *T {
	if len(*s) == cap(*s) {
		*s = make([]T, 0, min(max(2*cap(*s), 8), most))
	}
	*s = (*s)[:len(*s)+1]
	return &(*s)[len(*s)-1]
}

// Room returns an empty slice with room for n items cut from *s (nil for
// none); its capacity is n, so appending past it never overwrites a
// neighbour. A new slab holds n items or twice the last, up to most.
func Room[T any](s *[]T, n, most int) []T {
	if n == 0 {
		return nil
	}
	if cap(*s)-len(*s) < n {
		*s = make([]T, 0, max(n, min(max(2*cap(*s), 16), most)))
	}
	start := len(*s)
	*s = (*s)[:start+n]
	return (*s)[start : start : start+n]
}

// Copy returns a copy of items cut from *s as Room cuts it (nil for none).
func Copy[T any](s *[]T, items []T, most int) []T {
	return append(Room(s, len(items), most), items...)
}

// Push appends v to s, doubling its capacity when it is full. append
// grows a long list by about a quarter at a time, so that a list of a
// hundred thousand items, made one by one, would be copied some twenty
// times over; doubled, it is copied about twice over.
func Push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		t := make([]T, len(s), max(2*cap(s), 16))
		copy(t, s)
		s = t
	}
	return append(s, v)
}
