package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/parasol-lang/parasol/runtime"
)

// loadProgress shows how far sim --load has run, on a terminal: a bar of
// the share of simulated time done over the points, the simulated time of
// the point reported last against the time it runs to, events per second
// and an estimate of the time left. An open-loop point may simulate for
// hours (--measure 1e9s), where a spinner said nothing of how long. Like
// progress, it draws from the second second of the work on.
type loadProgress struct {
	w      io.Writer
	now    func() time.Time // time.Now; a fake clock in tests
	start  time.Time
	silent time.Duration // nothing is drawn before this much time has passed

	mu     sync.Mutex
	points []runtime.PointProgress // the last report of each point
	last   int                     // the point reported last
	shown  bool
}

func newLoadProgress(w io.Writer, points int, now func() time.Time) *loadProgress {
	return &loadProgress{w: w, now: now, start: now(), silent: time.Second, points: make([]runtime.PointProgress, points), last: -1}
}

// update records a point's report (runtime.Options.PointProgress).
func (p *loadProgress) update(point int, pp runtime.PointProgress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pp.Done {
		pp.Now, pp.Target = p.points[point].Target, p.points[point].Target
	}
	p.points[point] = pp
	if !pp.Done {
		p.last = point
	}
}

// draw writes the progress line, from the second second on.
func (p *loadProgress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if now.Sub(p.start) < p.silent {
		return
	}
	fmt.Fprintf(p.w, "\r%s\033[K", p.line(now))
	p.shown = true
}

// line is the progress line at the time now.
func (p *loadProgress) line(now time.Time) string {
	elapsed := now.Sub(p.start)
	var frac float64
	var events int64
	done := 0
	for _, pp := range p.points {
		events += pp.Events
		switch {
		case pp.Done:
			frac++
			done++
		case pp.Target > 0:
			frac += min(pp.Now/pp.Target, 1)
		}
	}
	frac /= float64(len(p.points))
	const width = 30
	fill := min(int(frac*width), width)
	var b strings.Builder
	fmt.Fprintf(&b, "[%s%s] %3.0f%%", strings.Repeat("#", fill), strings.Repeat(" ", width-fill), 100*frac)
	if len(p.points) > 1 {
		fmt.Fprintf(&b, "  %d/%d points", done, len(p.points))
	}
	if p.last >= 0 && !p.points[p.last].Done {
		pp := p.points[p.last]
		fmt.Fprintf(&b, "  simulated %s of %s (%s)", dur(pp.Now), dur(pp.Target), pp.Phase)
	}
	if s := elapsed.Seconds(); s > 0 {
		fmt.Fprintf(&b, "  %s events/s", perSecond(float64(events)/s))
	}
	if frac > 0 && frac < 1 {
		left := time.Duration(float64(elapsed) * (1 - frac) / frac)
		fmt.Fprintf(&b, "  about %s left", left.Round(time.Second))
	}
	fmt.Fprintf(&b, "  %s", elapsed.Round(time.Second))
	return b.String()
}

// perSecond writes a rate with an SI prefix: 950, 12.3k, 4.56M.
func perSecond(x float64) string {
	for _, u := range []struct {
		div    float64
		prefix string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if x >= u.div {
			return fmt.Sprintf("%.3g%s", x/u.div, u.prefix)
		}
	}
	return fmt.Sprintf("%.0f", x)
}

// run redraws the line twice a second until the returned function is
// called, which clears it.
func (p *loadProgress) run() (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				p.mu.Lock()
				if p.shown {
					fmt.Fprint(p.w, "\r\033[K")
				}
				p.mu.Unlock()
				return
			case <-t.C:
				p.draw()
			}
		}
	}()
	return func() { close(done); <-finished }
}
