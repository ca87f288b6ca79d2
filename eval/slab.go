package eval

import "github.com/parasol-lang/parasol/internal/slab"

// Slabs hand out the load-time records a machine has one of per field or
// per block (fields, blocks, link endpoints), so that a machine file of a
// hundred thousand links costs an allocation per few hundred of them rather
// than several per link. What a slab hands out lives as long as the
// machine does, as the records would anyway.

// slabChunk is the most records one allocation of a slab holds.
const slabChunk = 256

// take returns a zero T from slab.
func take[T any](s *[]T) *T { return slab.Take(s, slabChunk) }

// room returns an empty slice with room for n items cut from slab; it
// cannot grow into its neighbour, as its capacity is n.
func room[T any](s *[]T, n int) []T { return slab.Room(s, n, 4*slabChunk) }

// push appends v to s, doubling its capacity when it is full. append
// grows a long list by about a quarter at a time, so that a list of a
// hundred thousand items, made one by one, would be copied some twenty
// times over; doubled, it is copied about twice over.
func push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		t := make([]T, len(s), max(2*cap(s), 16))
		copy(t, s)
		s = t
	}
	return append(s, v)
}
