package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/workers"
)

// TestPanicInAWorkerIsRaisedWhereSimulateWasCalled: a panic in one of
// the simulation's own goroutines (here the caller's Progress callback,
// which a worker calls) stops the other workers and is raised again in
// the goroutine that called Simulate, where it can be recovered, carrying
// the worker's stack; it does not end the program.
func TestPanicInAWorkerIsRaisedWhereSimulateWasCalled(t *testing.T) {
	spec := basic(mustGen(t, "ring", 8), 1e-6, 1e6)
	for _, nworkers := range []int{1, 2} {
		v := func() (v any) {
			defer func() { v = recover() }()
			_, _ = Simulate(context.Background(), spec, Options{Op: "randperm", Runs: 50, Workers: nworkers,
				Progress: func(done, total int) {
					if done == 3 {
						panic("progress exploded")
					}
				}})
			return nil
		}()
		err, ok := v.(error)
		if !ok {
			t.Fatalf("%d workers: recovered %v (%T), want an error", nworkers, v, v)
		}
		if msg := err.Error(); !strings.Contains(msg, "progress exploded") || !strings.Contains(msg, "worker_panic_test.go") {
			t.Errorf("%d workers: %s\nwant the panic's value and the worker's stack", nworkers, msg)
		}
		var wp *workers.Panic
		if !errors.As(err, &wp) {
			t.Errorf("%d workers: %T, want *workers.Panic", nworkers, err)
		}
	}
}
