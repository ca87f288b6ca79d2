package program

import (
	"bytes"
	"context"
	"fmt"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/runtime"
)

// peakHeap is the most heap f holds at once beyond what was held before,
// sampled every 200 µs with the collector run often (5%), so that the
// heap follows what is live rather than what awaits collection; with a
// limit, as parasol sets it (debug.SetMemoryLimit), that much beyond.
func peakHeap(limit int64, f func()) int64 {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	goruntime.GC()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	if limit > 0 {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(ms.Sys) + limit))
	}
	var top atomic.Uint64
	top.Store(base)
	done, stopped := make(chan bool), make(chan bool)
	go func() {
		defer close(stopped)
		var ms goruntime.MemStats
		for {
			goruntime.ReadMemStats(&ms)
			if ms.HeapAlloc > top.Load() {
				top.Store(ms.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	f()
	close(done)
	<-stopped
	return int64(top.Load() - base)
}

// isWithin tells whether estimate is within 1.5 times of peak, either way.
func isWithin(estimate, peak int64) bool {
	return float64(estimate) >= float64(peak)/1.5 && float64(estimate) <= float64(peak)*1.5
}

// within reports an estimate not within 1.5 times of the peak, either way.
func within(t *testing.T, what string, estimate, peak int64) {
	t.Helper()
	if !isWithin(estimate, peak) {
		t.Errorf("%s: estimated %d KB, measured a peak of %d KB: not within 1.5 times", what, estimate>>10, peak>>10)
	}
}

// What a run is estimated to take beyond its schedule (what Analyze and
// RunProgram check against the limit) is within 1.5 times of the heap it
// is measured to take, for programs, GOAL schedules and traces analysed,
// and simulated, messages spaced and all at once; and the readers, which
// count what they hold as they read, refuse a limit two thirds of their
// measured peak and read within one and a half times of it (issue 26: a
// GOAL schedule of 16,777,216 ranks was estimated at 1.7 GB and peaked at
// 4.8 GB, the analysis's events, waiters and per-rank times being left
// out; the simulator counted 320 B a message, 1.5 times what spaced
// messages take and 0.4 times what messages all at once take).
func TestEstimatesAreWithinOneAndAHalfTimesThePeak(t *testing.T) {
	if testing.Short() {
		t.Skip("measures memory of runs of 65,536 ranks")
	}
	m, err := eval.Load("std:xmp64")
	if err != nil {
		t.Fatal(err)
	}
	const ranks = 1 << 16
	var goal1, goal4, trace bytes.Buffer
	fmt.Fprintf(&goal1, "num_ranks %d\n", ranks)
	fmt.Fprintf(&goal4, "num_ranks %d\n", ranks/4)
	for r := range ranks {
		fmt.Fprintf(&goal1, "rank %d {\nl1: calc 100\n}\n", r)
		if r < ranks/4 {
			// Independent operations: all are ready at once.
			fmt.Fprintf(&goal4, "rank %d {\nl1: calc 100\nl2: calc 100\nl3: calc 100\nl4: calc 100\n}\n", r)
		}
	}
	trace.WriteString("time,src,dst,bytes\n")
	for i := range ranks / 2 {
		fmt.Fprintf(&trace, "%d,%d,%d,8\n", i, i%64, (i+1)%64)
	}
	trace.WriteString("0,0,1,8\n")
	var burst, small bytes.Buffer // every message at once, 32,768 and 4,096 of them
	burst.WriteString("time,src,dst,bytes\n")
	small.WriteString("time,src,dst,bytes\n")
	for i := range ranks / 2 {
		fmt.Fprintf(&burst, "0,%d,%d,8\n", i%64, (i/64+i+1)%64)
		if i < ranks/16 {
			fmt.Fprintf(&small, "0,%d,%d,1KB\n", i%64, (i/64+i+1)%64)
		}
	}
	read := map[string]func(limit int64) (*lang.Schedule, error){
		"goal, one operation a rank": func(limit int64) (*lang.Schedule, error) {
			return parser.ReadGOAL(bytes.NewReader(goal1.Bytes()), "a.goal", limit)
		},
		"goal, four independent operations a rank": func(limit int64) (*lang.Schedule, error) {
			return parser.ReadGOAL(bytes.NewReader(goal4.Bytes()), "b.goal", limit)
		},
		"trace": func(limit int64) (*lang.Schedule, error) {
			return parser.ReadTrace(bytes.NewReader(trace.Bytes()), "t.csv", limit)
		},
		"trace, all at once": func(limit int64) (*lang.Schedule, error) {
			return parser.ReadTrace(bytes.NewReader(burst.Bytes()), "b.csv", limit)
		},
	}
	schedules := map[string]*lang.Schedule{}
	for name, f := range read {
		var s *lang.Schedule
		peak := peakHeap(0, func() { s, err = f(0) })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		schedules[name] = s
		// Read under two thirds of that, with the heap held to it as
		// parasol holds it, the reader refuses or stays within 1.5 times
		// its limit.
		// The less of two runs, as below: a sample taken while the
		// collector lags reads garbage as held.
		limit := peak * 2 / 3
		p := peakHeap(limit, func() { _, err = f(limit) })
		if err == nil && p > limit*3/2 {
			p = min(p, peakHeap(limit, func() { _, err = f(limit) }))
		}
		if err == nil && p > limit*3/2 {
			t.Errorf("%s: read within a limit of %d KB and peaked at %d KB", name, limit>>10, p>>10)
		} else if err != nil && !strings.Contains(err.Error(), "set --max-memory to raise it") {
			t.Errorf("%s: %v", name, err)
		}
		// A sampler starved of CPU on a loaded machine misses the top, so
		// a refusal is checked against the largest of up to three peaks.
		_, err = f(peak * 3 / 2)
		for retry := 0; err != nil && retry < 2; retry++ {
			peak = max(peak, peakHeap(0, func() { _, _ = f(0) }))
			_, err = f(peak * 3 / 2)
		}
		if err != nil {
			t.Errorf("%s: refused at %d KB, one and a half times its measured peak: %v", name, peak*3/2>>10, err)
		}
	}
	// Simulated only: the reader's and the analysis's fixed costs (about
	// 1 MB) weigh too much at this size for their estimates per item.
	const smallBurst = "trace, 4,096 messages of 1 KB at once"
	if schedules[smallBurst], err = parser.ReadTrace(bytes.NewReader(small.Bytes()), "s.csv", 0); err != nil {
		t.Fatal(err)
	}
	p, err := eval.ParseProgramBody(m, "for i in 1 .. 16 { send(1KB, to: mod(rank + 1, ranks), tag: i) recv(from: mod(rank + ranks - 1, ranks), tag: i) compute(1us) }")
	if err != nil {
		t.Fatal(err)
	}
	if schedules["program"], err = p.Schedule(m, eval.ScheduleOptions{Ranks: ranks / 16}); err != nil {
		t.Fatal(err)
	}
	for name, s := range schedules {
		analysis := analyzeBytes(s)
		simulation := runtime.ProgramBytes(s, runtime.ProgramOptions{})
		for _, mode := range []struct {
			name     string
			o        RunOptions
			estimate int64
		}{{"analysed", RunOptions{Analytic: true}, analysis}, {"simulated", RunOptions{Simulated: true}, simulation}} {
			if name == smallBurst && mode.name == "analysed" {
				continue
			}
			// Up to three runs, until one is within: a sample taken while
			// the collector lags reads garbage as held, and a sampler
			// starved of CPU on a loaded machine misses the top.
			var peaks []int64
			for range 3 {
				peaks = append(peaks, peakHeap(0, func() {
					if _, err := Run(context.Background(), m, s, mode.o); err != nil {
						t.Fatalf("%s, %s: %v", name, mode.name, err)
					}
				}))
				if isWithin(mode.estimate, peaks[len(peaks)-1]) {
					break
				}
			}
			within(t, name+", "+mode.name, mode.estimate, peaks[len(peaks)-1])
		}
	}
}
