package main

import (
	"strings"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/runtime"
)

// The progress line of sim --load, driven by a fake clock: nothing in the
// first second; then the share of simulated time done over the points,
// the point reported last, events per second and the time left at the
// rate so far (elapsed × (1 − done) / done).
func TestLoadProgressEstimatesTheTimeLeft(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := t0
	var out strings.Builder
	p := newLoadProgress(&out, 2, func() time.Time { return clock })

	p.update(0, runtime.PointProgress{Phase: "measurement", Now: 1, Target: 5, Events: 1e6})
	clock = t0.Add(500 * time.Millisecond)
	p.draw()
	if out.Len() != 0 {
		t.Fatalf("drawn in the first second: %q", out.String())
	}

	// Point 0 is 1/5 done, point 1 not started: 10%; 10 s for 10% leaves
	// 90 s; 1e6 events in 10 s.
	clock = t0.Add(10 * time.Second)
	p.draw()
	want := "\r[###                           ]  10%  0/2 points  simulated 1s of 5s (measurement)  100k events/s  about 1m30s left  10s\033[K"
	if out.String() != want {
		t.Errorf("after 10 s:\n got %q\nwant %q", out.String(), want)
	}

	// Point 0 done after 2e6 events, point 1 at 3 of 10 s: (1 + 0.3) / 2
	// = 65% in 20 s leaves 20 × 0.35 / 0.65 = 10.8 s; 3e6 events in 20 s.
	out.Reset()
	p.update(0, runtime.PointProgress{Done: true, Events: 2e6})
	p.update(1, runtime.PointProgress{Phase: "warm-up", Now: 3, Target: 10, Events: 1e6})
	clock = t0.Add(20 * time.Second)
	p.draw()
	want = "\r[###################           ]  65%  1/2 points  simulated 3s of 10s (warm-up)  150k events/s  about 11s left  20s\033[K"
	if out.String() != want {
		t.Errorf("after 20 s:\n got %q\nwant %q", out.String(), want)
	}
}
