package runtime

import (
	"math"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// A divider gives the quotient and remainder of the division instruction
// for every divisor and numerator tried: edges, powers of two and their
// neighbours, and random ones of every magnitude.
func TestDividerAgreesWithDivision(t *testing.T) {
	ds := []uint32{1, 2, 3, 5, 7, 10, 64, 1000, 1023, 1024, 1025, 65535, 65536, 1 << 31, math.MaxUint32 - 1, math.MaxUint32}
	ns := []uint32{0, 1, 2, 3, 1023, 1024, 1025, 1 << 20, 1<<31 - 1, 1 << 31, math.MaxUint32 - 1, math.MaxUint32}
	rng := topo.NewRand(1)
	for range 300 {
		ds = append(ds, uint32(rng.Uint64()>>uint(32+rng.Intn(32))))
		ns = append(ns, uint32(rng.Uint64()>>uint(32+rng.Intn(32))))
	}
	for _, d := range ds {
		if d == 0 {
			continue
		}
		v := newDivider(d)
		for _, n := range ns {
			if q, r := v.div(n), v.mod(n); q != n/d || r != n%d {
				t.Fatalf("%d / %d: divider gives %d rem %d, want %d rem %d", n, d, q, r, n/d, n%d)
			}
		}
	}
}

// An axis gives every node's coordinates as the divisions do.
func TestAxisCoordinates(t *testing.T) {
	dims := []int32{5, 3, 4}
	axes := newAxes(dims)
	for v := int32(0); v < 60; v++ {
		stride := int32(1)
		for d, k := range dims {
			if got, want := axes[d].coord(v), v/stride%k; got != want {
				t.Fatalf("node %d, dimension %d: coordinate %d, want %d", v, d, got, want)
			}
			stride *= k
		}
	}
}
