package runtime

import (
	"math"
	"slices"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// timeKey orders times as the float comparison does: a < b exactly when
// key(a) < key(b), for every pair of the list (NaN excluded), but for the
// signed zeros, which compare equal and share a list.
func TestTimeKeyOrdersAsTime(t *testing.T) {
	ts := []float64{math.Inf(-1), -math.MaxFloat64, -1, -math.SmallestNonzeroFloat64, 0,
		math.SmallestNonzeroFloat64, 1e-15, math.Nextafter(1e-6, 0), 1e-6, math.Nextafter(1e-6, 1), 1, math.MaxFloat64, math.Inf(1)}
	for i, a := range ts {
		for j, b := range ts {
			if got, want := timeKey(a) < timeKey(b), i < j; got != want {
				t.Errorf("timeKey(%g) < timeKey(%g) is %v, want %v", a, b, got, want)
			}
		}
	}
	if nz, z := timeKey(math.Copysign(0, -1)), timeKey(0); nz+1 != z {
		t.Errorf("timeKey(-0) = %#x, timeKey(+0) = %#x: want -0 just below +0", nz, z)
	}
}

// The lists' heap pops its lists in order of time, whatever the order
// they were pushed in and however full its last level: checked against
// the times sorted, with pops between pushes.
func TestListHeapPopsInTimeOrder(t *testing.T) {
	rng := topo.NewRand(5)
	for _, n := range []int{1, 2, 4, 5, 6, 20, 21, 85, 86, 1000} {
		var h []listRef
		var pending []float64
		seen := map[float64]bool{}
		for id := range int32(n) {
			// Distinct times, as the lists': a few scales, both signs.
			x := rng.Float64() * []float64{1e-6, 1, -1, 1e300}[rng.Intn(4)]
			if seen[x] {
				continue
			}
			seen[x] = true
			h = pushList(h, listRef{key: timeKey(x), id: id})
			pending = append(pending, x)
			if rng.Intn(3) == 0 {
				h, pending = popCheck(t, h, pending)
			}
		}
		for len(h) > 0 {
			h, pending = popCheck(t, h, pending)
		}
	}
}

// popCheck pops h's root and checks that it is the earliest of pending,
// which it returns without it.
func popCheck(t *testing.T, h []listRef, pending []float64) ([]listRef, []float64) {
	t.Helper()
	i := slices.Index(pending, slices.Min(pending))
	if h[0].key != timeKey(pending[i]) {
		t.Fatalf("root has key %#x, want that of %g, the earliest of %d", h[0].key, pending[i], len(pending))
	}
	return popList(h), slices.Delete(pending, i, i+1)
}
