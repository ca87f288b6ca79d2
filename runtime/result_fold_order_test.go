package runtime

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// Items finished in any order are folded in index order, with never more
// than the window admitted ahead of the first unfolded one; when the work
// is cancelled, the items that finished behind a gap are folded in order
// by flush and the items never admitted are left out.
func TestInOrderFoldsByIndexWithinTheWindow(t *testing.T) {
	for _, tc := range []struct {
		name            string
		items, window   int
		workers         int
		cancelAt        int // cancel once this many have been folded; 0: never
		wantAllFinished bool
	}{
		{"one worker", 50, 1, 1, 0, true},
		{"several workers", 400, 3, 4, 0, true},
		{"window wider than the items", 20, 100, 4, 0, true},
		{"cancelled", 400, 2, 4, 100, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var folded []int
			var mu sync.Mutex
			admitted, maxAhead := map[int]bool{}, 0
			o := newInOrder(tc.window, func(i int, x int) {
				if x != i*i {
					t.Errorf("item %d folded with %d, want %d", i, x, i*i)
				}
				folded = append(folded, i)
				if len(folded) == tc.cancelAt {
					cancel()
				}
			})
			var next int
			var wg sync.WaitGroup
			for w := range tc.workers {
				wg.Go(func() {
					rng := topo.NewRand(uint64(w))
					for {
						mu.Lock()
						i := next
						next++
						mu.Unlock()
						if i >= tc.items || ctx.Err() != nil || !o.admit(ctx, i) { // as onSims
							return
						}
						o.mu.Lock()
						maxAhead = max(maxAhead, i-o.next)
						o.mu.Unlock()
						mu.Lock()
						admitted[i] = true
						mu.Unlock()
						for range rng.Intn(2000) { // finish out of order
						}
						o.put(i, i*i)
					}
				})
			}
			wg.Wait()
			o.flush(tc.items)
			if maxAhead >= max(tc.window, 1) {
				t.Errorf("item admitted %d ahead of the first unfolded, window %d", maxAhead, tc.window)
			}
			if !slices.IsSorted(folded) {
				t.Errorf("folded out of order: %v", folded)
			}
			if len(folded) != len(admitted) {
				t.Errorf("%d items folded, %d admitted", len(folded), len(admitted))
			}
			if tc.wantAllFinished != (len(folded) == tc.items) {
				t.Errorf("%d of %d items folded", len(folded), tc.items)
			}
		})
	}
}
