package runtime

import (
	"context"
	"sync"
)

// runFold folds run results into a Result one run at a time, in run
// order, so that the outcome depends neither on the workers nor on how the
// runs were split into shards, and what it keeps does not grow with the
// number of runs (latencySummary).
type runFold struct {
	r      *Result
	lat    latencySummary
	hops   int64
	byHops hopAgg
}

// newRunFold makes a fold of runs of about latencies latencies in all; it
// keeps room for those it will keep exactly from the start, as the budget
// counts them, rather than growing by copies to up to twice as much.
func newRunFold(op string, latencies int64) *runFold {
	f := &runFold{r: &Result{Op: op}}
	if latencies > 0 {
		f.lat.exact = make([]float64, 0, min(latencies, exactLatencies))
	}
	return f
}

func (f *runFold) add(x *runResult) {
	r := f.r
	r.Runs++
	if x.stripes > 1 {
		r.Stripes = max(r.Stripes, x.stripes)
	}
	if r.Unstriped == "" {
		r.Unstriped = x.unstriped
	}
	for _, b := range x.byHops {
		if b.Messages > 0 {
			f.byHops = f.byHops.add(b.Hops, b.Messages, b.Mean, b.Min, b.Max)
		}
	}
	f.lat.add(x.lat)
	f.hops += x.hopSum
	r.SendTime.Mean += x.sendSum
	r.SendTime.FinalAck += x.ackSum
	r.SendTime.Max = max(r.SendTime.Max, x.sendMax)
	r.Hops.Max = max(r.Hops.Max, x.hopMax)
	r.Makespan += x.makespan
	r.MakespanMax = max(r.MakespanMax, x.makespan)
	r.LinkLoadMax = max(r.LinkLoadMax, x.linkLoad)
	r.ProcLoadMax = max(r.ProcLoadMax, x.procLoad)
	r.LinkLoadAvg += float64(x.linkLoad)
	r.ProcLoadAvg += float64(x.procLoad)
	r.LinkUtil.Mean += x.utilMean
	r.LinkUtil.Max += x.utilMax
	r.Events += x.events
	r.Undelivered += x.undelivered
	r.Partial = r.Partial || x.partial
	if x.deadlock {
		if !r.Deadlock {
			r.Cycle = x.cycle
		}
		r.Deadlock = true
		r.DeadlockRuns++
	}
}

// result finishes the fold; the fold must not be used after.
func (f *runFold) result() *Result {
	r := f.r
	if n := float64(r.Runs); n > 0 {
		r.Makespan /= n
		r.LinkLoadAvg /= n
		r.ProcLoadAvg /= n
		r.LinkUtil.Mean /= n
		r.LinkUtil.Max /= n
	}
	r.Messages = f.lat.count()
	r.ByHops = []HopLatency{}
	for _, b := range f.byHops {
		if b.Messages > 0 {
			b.Mean /= float64(b.Messages)
			r.ByHops = append(r.ByHops, b)
		}
	}
	if r.Messages == 0 {
		r.Histogram = Histogram{Edges: []float64{}, Counts: []int{}}
		return r
	}
	r.Hops.Mean = float64(f.hops) / float64(r.Messages)
	r.SendTime.Mean /= float64(r.Messages)
	r.SendTime.FinalAck /= float64(r.Messages)
	f.lat.fill(r)
	return r
}

// aggregate folds run results in run order.
func aggregate(op string, runs []runResult) *Result {
	total := 0
	for i := range runs {
		total += len(runs[i].lat)
	}
	f := newRunFold(op, int64(total))
	for i := range runs {
		f.add(&runs[i])
	}
	return f.result()
}

// foldOne is aggregate of the one run x, whose latencies it takes over
// rather than copies (it sorts them in place: x.lat must not be read
// after). An open-loop point's copy of its latencies was a seventh of what
// a curve allocated, enough to run the collector once in the middle of a
// 10-point dragonfly curve, its write barriers on for a sixth of it (4.5%
// of the curve's CPU).
func foldOne(op string, x *runResult) *Result {
	f := newRunFold(op, 0)
	if len(x.lat) <= exactLatencies {
		f.lat.exact, x.lat = x.lat, nil
	}
	f.add(x)
	return f.result()
}

// inOrder passes items finished in any order to fold in index order. A
// worker admitted to item i has it within window of the first item not yet
// folded, so at most window finished items wait for a slow one.
type inOrder[T any] struct {
	mu      sync.Mutex
	cond    sync.Cond
	next    int // first item not folded
	window  int
	pending map[int]T
	fold    func(i int, x T)
}

func newInOrder[T any](window int, fold func(i int, x T)) *inOrder[T] {
	o := &inOrder[T]{window: max(window, 1), pending: map[int]T{}, fold: fold}
	o.cond.L = &o.mu
	return o
}

// admit waits until item i may start; false if ctx ended first.
func (o *inOrder[T]) admit(ctx context.Context, i int) bool {
	o.mu.Lock()
	ok := i < o.next+o.window
	o.mu.Unlock()
	if ok {
		return true
	}
	stop := context.AfterFunc(ctx, func() {
		o.mu.Lock()
		o.cond.Broadcast()
		o.mu.Unlock()
	})
	defer stop()
	o.mu.Lock()
	defer o.mu.Unlock()
	for i >= o.next+o.window && ctx.Err() == nil {
		o.cond.Wait()
	}
	return i < o.next+o.window
}

// put hands over finished item i and folds every item it completes.
func (o *inOrder[T]) put(i int, x T) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending[i] = x
	advanced := false
	for {
		y, ok := o.pending[o.next]
		if !ok {
			break
		}
		delete(o.pending, o.next)
		o.fold(o.next, y)
		o.next++
		advanced = true
	}
	if advanced {
		o.cond.Broadcast()
	}
}

// flush folds, in index order, the items left behind a gap (items that
// were never run because the work was cancelled). No worker may be running.
func (o *inOrder[T]) flush(count int) {
	for i := o.next; i < count && len(o.pending) > 0; i++ {
		if y, ok := o.pending[i]; ok {
			delete(o.pending, i)
			o.fold(i, y)
		}
	}
}
