package workers

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

func TestForRunsEveryIterationOnce(t *testing.T) {
	for _, w := range []int{0, 1, 3, 64} {
		seen := make([]atomic.Int32, 1000)
		inits := atomic.Int32{}
		err := For(context.Background(), w, len(seen), func() *int { inits.Add(1); return new(int) },
			func(_ context.Context, s *int, i int) error { *s++; seen[i].Add(1); return nil })
		if err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			if seen[i].Load() != 1 {
				t.Fatalf("workers %d: iteration %d ran %d times", w, i, seen[i].Load())
			}
		}
		if got, want := int(inits.Load()), Count(w, len(seen)); got != want {
			t.Errorf("workers %d: %d states made, want one per worker (%d)", w, got, want)
		}
	}
}

func TestForReturnsTheLowestFailingIndexAndStops(t *testing.T) {
	var ran atomic.Int32
	err := For[struct{}](context.Background(), 1, 100, nil, func(_ context.Context, _ struct{}, i int) error {
		ran.Add(1)
		if i >= 10 {
			return errors.New("at " + string(rune('0'+i/10)))
		}
		return nil
	})
	if err == nil || err.Error() != "at 1" {
		t.Fatalf("err = %v, want the error of iteration 10", err)
	}
	if ran.Load() != 11 {
		t.Errorf("%d iterations ran after the first error with one worker, want 11", ran.Load())
	}
}

func TestForRaisesAWorkersPanicInTheCaller(t *testing.T) {
	defer func() {
		p, ok := recover().(*Panic)
		if !ok || p.Value != "boom" || len(p.Stack) == 0 {
			t.Fatalf("recovered %#v, want *Panic{boom} with a stack", p)
		}
	}()
	_ = For[struct{}](context.Background(), 4, 100, nil, func(_ context.Context, _ struct{}, i int) error {
		if i == 37 {
			panic("boom")
		}
		return nil
	})
	t.Fatal("For returned after a worker panicked")
}

func TestForStopsWhenTheContextIsDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	err := For[struct{}](ctx, 2, 1_000_000, nil, func(_ context.Context, _ struct{}, i int) error {
		if ran.Add(1) == 50 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if ran.Load() >= 1_000_000 {
		t.Error("every iteration ran after the context was cancelled")
	}
}

func TestStreamConsumesInIndexOrder(t *testing.T) {
	var got []int
	var inFlight, most atomic.Int32
	err := Stream(context.Background(), 4, 500, 8, func(_ context.Context, i int) int {
		n := inFlight.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		return i * i
	}, func(i, r int) error {
		inFlight.Add(-1)
		if r != i*i {
			t.Errorf("result %d handed with index %d", r, i)
		}
		got = append(got, i)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("consumed %v..., want index order", got[:i+1])
		}
	}
	if len(got) != 500 {
		t.Fatalf("consumed %d results, want 500", len(got))
	}
	if most.Load() > 8 {
		t.Errorf("%d results produced ahead of consumption, want at most the window of 8", most.Load())
	}
}

func TestStreamStopsOnConsumeError(t *testing.T) {
	stop := errors.New("stop")
	var produced atomic.Int32
	err := Stream(context.Background(), 2, 10_000, 4, func(_ context.Context, i int) int { produced.Add(1); return i },
		func(i, _ int) error {
			if i == 5 {
				return stop
			}
			return nil
		})
	if err != stop {
		t.Fatalf("err = %v, want consume's", err)
	}
	if produced.Load() > 6+4+2 {
		t.Errorf("%d produced after consume stopped at 5 with a window of 4", produced.Load())
	}
}

func TestStreamRaisesAPanic(t *testing.T) {
	defer func() {
		if _, ok := recover().(*Panic); !ok {
			t.Fatal("want a *Panic raised in the caller")
		}
	}()
	_ = Stream(context.Background(), 3, 100, 0, func(_ context.Context, i int) int {
		if i == 50 {
			panic(errors.New("broken"))
		}
		return i
	}, func(int, int) error { return nil })
	t.Fatal("Stream returned after a worker panicked")
}
