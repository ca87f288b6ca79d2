package runtime

import (
	"fmt"
	"math/rand/v2"

	"github.com/parasol-lang/parasol/lang"
)

// A processor's local clock (seed 004 §3.2), as the runtime simulates it
// (program_clock.go) and the evaluator reads it from a machine's
// clock_offset, clock_drift and clock_jitter fields. Reading it at true
// time t gives
//
//	t·(1 + drift) + offset + ε
//
// where offset and drift are drawn once per run for each processor and ε,
// the read jitter, is drawn anew at every read.

// DistKind says how a Dist draws.
type DistKind uint8

const (
	DistFixed   DistKind = iota // always A
	DistUniform                 // uniformly between A and B
	DistNormal                  // normally, mean A, standard deviation B
)

// Dist is a quantity a run draws, in SI units.
type Dist struct {
	Kind DistKind
	A, B float64
}

// Draw draws one value.
func (d Dist) Draw(r *rand.Rand) float64 {
	switch d.Kind {
	case DistUniform:
		return d.A + (d.B-d.A)*r.Float64()
	case DistNormal:
		return d.A + d.B*r.NormFloat64()
	}
	return d.A
}

// Mean is the distribution's mean.
func (d Dist) Mean() float64 {
	if d.Kind == DistUniform {
		return (d.A + d.B) / 2
	}
	return d.A
}

// Zero reports whether every draw is 0.
func (d Dist) Zero() bool { return d == Dist{} || d.Kind != DistNormal && d.A == 0 && d.B == 0 }

// Format writes the distribution as the language does, in unit dim.
func (d Dist) Format(dim lang.Dim) string {
	q := func(x float64) string { return lang.FormatQuantity(x, dim) }
	switch d.Kind {
	case DistUniform:
		return "uniform(" + q(d.A) + ", " + q(d.B) + ")"
	case DistNormal:
		return "normal(" + q(d.A) + ", " + q(d.B) + ")"
	}
	return q(d.A)
}

// Clock is a processor's local clock. The zero value is a perfect clock.
type Clock struct {
	Offset Dist // s, drawn once per run
	Drift  Dist // a fraction (1e-6: one part per million), drawn once per run
	Jitter Dist // s, drawn at every read
}

// DrawRate draws the clock's rate, 1 + its drift, once per run. A normal
// drift at or below -1 (a clock that stops or runs backwards) is drawn
// again: the drift is a normal distribution cut there. Its mean is above
// -1 (Check refuses others), so a draw succeeds more often than not.
func (c Clock) DrawRate(r *rand.Rand) float64 {
	for range 64 {
		if d := c.Drift.Draw(r); d > -1 {
			return 1 + d
		}
	}
	return 1 + c.Drift.A
}

// Perfect reports whether the clock always reads the true time.
func (c Clock) Perfect() bool { return c.Offset.Zero() && c.Drift.Zero() && c.Jitter.Zero() }

// Check says why a clock is out of the bounds of the clock fields
// (CheckClockField), or "".
func (c Clock) Check() string {
	for _, f := range []struct {
		name string
		d    Dist
	}{{"clock_offset", c.Offset}, {"clock_drift", c.Drift}, {"clock_jitter", c.Jitter}} {
		for _, x := range []float64{f.d.A, f.d.B} {
			if x != x {
				return f.name + " is not a number"
			}
			if msg := CheckClockField(f.name, x); msg != "" {
				return msg
			}
		}
	}
	if c.Drift.A <= -1 {
		return fmt.Sprintf("clock_drift must be above -1 (a clock that stops or runs backwards), got %s", c.Drift.Format(lang.Dimensionless))
	}
	return ""
}
