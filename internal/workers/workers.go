// Package workers spreads a loop's iterations over a fixed number of
// goroutines, the one way Parasol runs anything in parallel.
//
// Iterations are handed out in index order from a shared counter, so a
// worker that finishes early takes the next index instead of idling. The
// first error or panic stops the loop: the context the iterations see is
// cancelled, iterations not yet started are not started, and the caller
// gets the error, or the panic raised again in its own goroutine (as a
// *Panic carrying the worker's stack), where it can recover it: a panic in
// a goroutine of the library's own would otherwise end the program.
package workers

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Count is the number of workers to use for n iterations when the caller
// asks for want (0 or less: one per CPU): never more than n, never fewer
// than one.
func Count(want, n int) int {
	if want <= 0 {
		want = runtime.GOMAXPROCS(0)
	}
	return max(1, min(want, n))
}

// Panic is a worker's panic, raised again in the goroutine that called For
// or Stream.
type Panic struct {
	Value any    // what the worker panicked with
	Stack []byte // the worker's stack when it panicked
}

func (p *Panic) Error() string {
	return fmt.Sprintf("%v [recovered in a worker]\n\n%s", p.Value, p.Stack)
}

// Unwrap gives the worker's panic value where it was an error (a
// runtime.Error, say).
func (p *Panic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// For calls body(ctx, state, i) for every i in [0, n) over Count(workers, n)
// goroutines. Each goroutine makes its own state with init once (nil init:
// the zero S) and passes it to every iteration it runs, so buffers are
// reused without locks.
//
// For returns when every started iteration has returned. It stops early on
// the first error a body returns (For returns that error; with several, the
// one of the lowest index among those that ran), on a panic (raised again
// here as a *Panic), or when ctx is done (For returns ctx.Err() if any
// iteration was left unstarted).
func For[S any](ctx context.Context, workers, n int, init func() S, body func(ctx context.Context, state S, i int) error) error {
	if n <= 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next    atomic.Int64
		mu      sync.Mutex
		errAt   = n
		err     error
		failed  atomic.Pointer[Panic]
		skipped atomic.Bool
		wg      sync.WaitGroup
	)
	for range Count(workers, n) {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					failed.CompareAndSwap(nil, &Panic{Value: v, Stack: debug.Stack()})
					cancel()
				}
			}()
			var state S
			if init != nil {
				state = init()
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if ctx.Err() != nil {
					skipped.Store(true)
					return
				}
				if e := body(ctx, state, i); e != nil {
					mu.Lock()
					if i < errAt {
						errAt, err = i, e
					}
					mu.Unlock()
					cancel()
					return
				}
			}
		})
	}
	wg.Wait()
	if p := failed.Load(); p != nil {
		panic(p)
	}
	if err != nil {
		return err
	}
	if skipped.Load() {
		return context.Cause(ctx)
	}
	return nil
}

// Stream calls produce(ctx, i) for every i in [0, n) over Count(workers, n)
// goroutines and hands each result to consume in index order, in the
// caller's goroutine, as soon as it and every result before it are ready.
// At most window results (window ≤ 0: 2 per worker) are produced ahead of
// the one consume waits for, which bounds the memory held.
//
// The first error consume returns stops the loop and is returned; a panic
// in produce is raised again here as a *Panic; when ctx is done Stream
// returns ctx.Err() once the started iterations have returned.
func Stream[R any](ctx context.Context, workers, n int, window int, produce func(ctx context.Context, i int) R, consume func(i int, r R) error) error {
	if n <= 0 {
		return nil
	}
	w := Count(workers, n)
	if window <= 0 {
		window = 2 * w
	}
	window = max(window, w)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	slots := make([]chan R, n)
	for i := range slots {
		slots[i] = make(chan R, 1)
	}
	// ahead holds one token per result that may be produced before it is
	// consumed: a worker takes one before it starts an iteration, consume
	// gives one back.
	ahead := make(chan struct{}, window)
	for range window {
		ahead <- struct{}{}
	}
	var (
		next   atomic.Int64
		failed atomic.Pointer[Panic]
		wg     sync.WaitGroup
	)
	for range w {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					failed.CompareAndSwap(nil, &Panic{Value: v, Stack: debug.Stack()})
					cancel()
				}
			}()
			for {
				select {
				case <-ahead:
				case <-ctx.Done():
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				slots[i] <- produce(ctx, i)
			}
		})
	}
	err := func() error {
		for i := range n {
			select {
			case r := <-slots[i]:
				if err := consume(i, r); err != nil {
					return err
				}
				ahead <- struct{}{}
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		}
		return nil
	}()
	cancel()
	wg.Wait()
	if p := failed.Load(); p != nil {
		panic(p)
	}
	return err
}
