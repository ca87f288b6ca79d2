package study

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// MaxLoadPoints bounds a load–latency curve: each point is a long
// simulation.
const MaxLoadPoints = 1000

// ParseLoads reads offered loads per processor, each a share of its
// injection bandwidth in (0, runtime.MaxOverload] (0.3) or a rate (500MB/s): a
// comma-separated list of them and of ranges FROM:TO:STEP, FROM and TO
// included (0.05:0.6:0.05), at most MaxLoadPoints in all. The loads carry
// only their Fraction or Rate; Traffic.Apply gives them the rest.
func ParseLoads(s string) ([]runtime.Load, error) {
	var pts []runtime.Load
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if lo, rest, isRange := strings.Cut(item, ":"); isRange {
			hi, step, ok := strings.Cut(rest, ":")
			if !ok {
				return nil, fmt.Errorf("a range is FROM:TO:STEP, e.g. 0.05:0.6:0.05; got %q", item)
			}
			r, err := loadRange(lo, hi, step)
			if err != nil {
				return nil, err
			}
			pts = append(pts, r...)
			continue
		}
		p, _, err := parseLoad(item)
		if err != nil {
			return nil, err
		}
		pts = append(pts, p)
	}
	if len(pts) > MaxLoadPoints {
		return nil, fmt.Errorf("%d points; a curve has at most %d", len(pts), MaxLoadPoints)
	}
	return pts, nil
}

// parseLoad reads one point: a share of the injection bandwidth in (0, runtime.MaxOverload]
// or a rate; v is the number as given.
func parseLoad(s string) (p runtime.Load, v float64, err error) {
	q, err := lang.ParseQuantity(s)
	switch {
	case err != nil:
		return p, 0, fmt.Errorf("expected a share of the injection bandwidth (0.3) or a rate (500MB/s), got %q", s)
	case q.Kind == lang.Number && q.Dim == lang.Dimensionless:
		if !(q.Num > 0 && q.Num <= runtime.MaxOverload) {
			return p, 0, fmt.Errorf("a load is a share of the injection bandwidth from 0 (excluded) to %d (above 1 the sources' queues grow), got %s", runtime.MaxOverload, s)
		}
		return runtime.Load{Fraction: q.Num}, q.Num, nil
	case q.Kind == lang.Number && q.Dim == lang.RateDim:
		if !(q.Num > 0) || math.IsInf(q.Num, 0) {
			return p, 0, fmt.Errorf("a rate must be above 0, got %s", s)
		}
		return runtime.Load{Rate: q.Num}, q.Num, nil
	}
	return p, 0, fmt.Errorf("expected a share of the injection bandwidth (0.3) or a rate (500MB/s), got a %s", q.TypeName())
}

// loadRange is FROM:TO:STEP, FROM and TO included (TO within rounding).
func loadRange(lo, hi, step string) ([]runtime.Load, error) {
	a, av, err := parseLoad(lo)
	if err != nil {
		return nil, err
	}
	b, bv, err := parseLoad(hi)
	if err != nil {
		return nil, err
	}
	s, sv, err := parseLoad(step)
	if err != nil {
		return nil, err
	}
	rate := a.Rate > 0
	if (b.Rate > 0) != rate || (s.Rate > 0) != rate {
		return nil, fmt.Errorf("a range's FROM, TO and STEP are all shares or all rates, got %s:%s:%s", lo, hi, step)
	}
	if bv < av {
		return nil, fmt.Errorf("a range runs up: %s is below %s", hi, lo)
	}
	// Counted as a float first: a tiny step makes more points than an int
	// holds.
	steps := math.Floor((bv - av) / sv * (1 + 1e-12))
	if !(steps < MaxLoadPoints) {
		return nil, fmt.Errorf("%s:%s:%s is %.4g points; a curve has at most %d", lo, hi, step, steps+1, MaxLoadPoints)
	}
	n := int(steps) + 1
	out := make([]runtime.Load, n)
	for i := range out {
		// from the start each time, rounded, so 0.05 + 11·0.05 is 0.6
		v, _ := strconv.ParseFloat(strconv.FormatFloat(av+float64(i)*sv, 'g', 12, 64), 64)
		if rate {
			out[i].Rate = v
		} else {
			out[i].Fraction = min(v, 1)
		}
	}
	return out, nil
}

// Traffic is how the processors generate messages at every point of a
// load–latency curve: the arrival process, the phases' lengths (seconds;
// 0: warm-up until windows agree, and the default measurement) and, for
// Options.Op runtime.ListOp, the user's pattern.
type Traffic struct {
	Process         runtime.Process
	Warmup, Measure float64
	List            runtime.MessageList
	Self            bool // uniform traffic includes the source (runtime.Load.Self)
}

// Apply is loads, as ParseLoads reads them, generated as t says.
func (t Traffic) Apply(loads []runtime.Load) []runtime.Load {
	out := make([]runtime.Load, len(loads))
	for i, l := range loads {
		l.Process, l.Warmup, l.Measure, l.List, l.Self = t.Process, t.Warmup, t.Measure, t.List, t.Self
		out[i] = l
	}
	return out
}

// LoadCurve runs a load–latency curve on rs: opts.Op's traffic pattern
// (or runtime.ListOp's Load.List) at each of loads, one long run a point
// (opts.Runs is ignored), the points spread over opts.Workers cores
// (runtime.OfferedCurve). It returns the points that finished, in order:
// nil with the error when none could run (an option the network refuses),
// and when interrupted the points done so far with ctx's error.
func LoadCurve(ctx context.Context, rs *runtime.Spec, opts runtime.Options, loads []runtime.Load) ([]*runtime.LoadResult, error) {
	opts.Runs = 0
	pts, err := runtime.OfferedCurve(ctx, rs, opts, loads)
	if pts == nil {
		return nil, err
	}
	done := make([]*runtime.LoadResult, 0, len(pts))
	for _, p := range pts {
		if p != nil {
			done = append(done, p)
		}
	}
	return done, err
}

// SaturationThroughput is the largest load accepted over the points, and
// the point that accepted it (nil when there are none). It is the
// network's saturation throughput for the pattern when some point
// saturated (Saturated); else only a lower bound of it.
func SaturationThroughput(pts []*runtime.LoadResult) (float64, *runtime.LoadResult) {
	var best *runtime.LoadResult
	for _, p := range pts {
		if best == nil || p.Accepted > best.Accepted {
			best = p
		}
	}
	if best == nil {
		return 0, nil
	}
	return best.Accepted, best
}

// Saturated reports whether any of the points saturated.
func Saturated(pts []*runtime.LoadResult) bool {
	for _, p := range pts {
		if p.Saturated {
			return true
		}
	}
	return false
}
