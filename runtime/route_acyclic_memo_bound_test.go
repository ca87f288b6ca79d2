package runtime

import (
	"testing"

	"github.com/parasol-lang/parasol/runtime/acyclic"
)

// Routing on demand keeps its connects, distance cache and memo within the
// memory limit it was built under: the memo takes at most what the
// routing state leaves, and no more than its own bound; with less than
// a useful memo's room left there is none.
func TestAcyclicOnDemandMemoStaysWithinTheLimit(t *testing.T) {
	g := mustGen(t, "hamiltonian", 256, 5)
	probe, err := buildAcyclic(g, acyclic.Plain, 1, 4<<30, -1)
	if err != nil {
		t.Fatal(err)
	}
	state := probe.nw.RoutingBytes()
	for _, tc := range []struct {
		name     string
		limit    int64
		wantMemo int64
	}{
		{"roomy limit", 4 << 30, acyclicMemoBytes},
		{"limit above the routing state", state + 4<<20, 4 << 20},
		{"limit just above the routing state", state + minMemoBytes - 1, 0},
		{"limit at the routing state", state, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := buildAcyclic(g, acyclic.Plain, 1, tc.limit, -1)
			if err != nil {
				t.Fatal(err)
			}
			if !tb.nw.OnDemand() {
				t.Fatal("built with full tables")
			}
			got := int64(0) // without a memo, packets look their hops up in the cache
			if tb.memo != nil {
				got = tb.memo.MaxBytes()
			}
			if got != tc.wantMemo {
				t.Errorf("memo bound %d bytes, want %d (routing state %d, limit %d)", got, tc.wantMemo, tb.nw.RoutingBytes(), tc.limit)
			}
		})
	}
}
