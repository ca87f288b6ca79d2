package eval

import (
	"unsafe"

	"github.com/parasol-lang/parasol/internal/slab"
)

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

// linkRecords holds a Parasol I link's load-time records in one piece: its
// object, its fields' records and its lists of them, for the commonest
// shape of link block (four fields and two endpoints). Their pointers to
// one another then stay within one allocation, which the collector passes
// over without looking up, as it must look up a pointer to another: a
// file of a hundred thousand links holds some two million such pointers.
type linkRecords struct {
	obj    object
	fields [8]field // the fields' and the endpoints' records
	ptrs   [5]*field
	ends   [2]endpoint
}

// minLinkRecords is the fewest field records a link needs to be held in
// one piece.
const minLinkRecords = 6

// linkChunk is the most link records one allocation holds: within the
// 128 KiB the collector scans as one piece, so that none of its pointers
// to itself is taken for a pointer elsewhere.
const linkChunk = 120 << 10 / int(unsafe.Sizeof(linkRecords{}))
