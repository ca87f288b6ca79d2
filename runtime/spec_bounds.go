package runtime

import (
	"fmt"
	"math"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// The bounds of the parameters a Spec is made of. Arithmetic already
// refuses ±Inf and NaN, but a finite value can still be absurd: a latency
// of 1e308 s is a float64, and the simulator's latency × hops or bytes ÷
// speed of it is not. Each bound is far beyond what any physical machine
// approaches, and together they keep every product the analytic model and
// the simulator form finite by a wide margin: a message is at most 2^53 B
// (Options.Size), so at the slowest rate one hop takes under 10^17 s, and
// stored and forwarded over 2^27 hops (the most nodes a graph has) under
// 10^25 s. The runtime owns them, as the ranges within which its
// arithmetic holds: Spec.Validate applies them to a Spec however it was
// built, and the evaluator holds a machine file's fields to the same ones
// while loading, at their positions. docs/LANGUAGE.md (Values and units)
// lists them.
const (
	// MaxTime bounds every time a machine gives (a latency, an overhead, a
	// delay, an operation time): a Julian year, in seconds.
	MaxTime = 365.25 * 24 * 3600
	// MinRate and MaxRate bound a rate other than 0 (a link's speed, a
	// processor's maxspeed): 1 bit/s and 10^24 B/s, in bytes per second.
	MinRate = 0.125
	MaxRate = 1e24
	// MaxTimePerByte bounds a time per byte (route_per_byte): that of a
	// link at MinRate.
	MaxTimePerByte = 1 / MinRate
	// MinFreq and MaxFreq bound a frequency other than 0 (a clock).
	MinFreq = 1
	MaxFreq = 1e24
	// MaxSize bounds a size: 2^53 B, the largest message.
	MaxSize = 1 << 53
	// MaxPercent bounds a percentage such as maxrecvdelay, as a fraction:
	// 1,000,000%, computation slowed 10,001-fold.
	MaxPercent = 1e4
	// MinSpeedup and MaxSpeedup bound a router's crossbar speedup other
	// than 0 (0: not modelled); the simulator divides by it.
	MinSpeedup = 1e-3
	MaxSpeedup = 1e3
	// MaxDrift bounds a clock's rate error (1: twice as fast); below, the
	// error is above -1, a clock that stops.
	MaxDrift = 1
)

// ParamBound is the bound of a kind of parameter: the range its value
// may take, and how a value out of it is explained. A machine file's
// field of that kind gets the same bound, and the same message, while
// loading.
type ParamBound uint8

const (
	TimeBound        ParamBound = iota // seconds, 0 to MaxTime
	TimePerByteBound                   // seconds per byte, 0 to MaxTimePerByte
	LinkSpeedBound                     // bytes per second, MinRate to MaxRate
	PercentBound                       // a fraction (0.3 for 30%), 0 to MaxPercent
	SpeedupBound                       // 0, or MinSpeedup to MaxSpeedup
	RateBound                          // bytes per second, 0 or MinRate to MaxRate
	FreqBound                          // hertz, 0 or MinFreq to MaxFreq
	SizeBound                          // bytes, 0 to MaxSize
)

// bound is the range a value of a kind may take.
type bound struct {
	lo, hi float64
	// zero: 0 is allowed below lo (a rate of 0 where it means none).
	zero bool
	// what names the kind of value, and loText and hiText the bounds, for
	// a message: "a time is at most a year (31557600s)".
	what, loText, hiText string
	// unit is the base unit a value is shown in; a percentage is shown
	// multiplied by 100, with %.
	unit    string
	percent bool
}

var paramBounds = [...]bound{
	TimeBound:        {0, MaxTime, false, "a time", "", "a year (31557600s)", "s", false},
	TimePerByteBound: {0, MaxTimePerByte, false, "a time per byte", "", "8s/B (a 1 bit/s link's)", "s/B", false},
	LinkSpeedBound:   {MinRate, MaxRate, false, "a link's speed", "1 bit/s (0.125B/s)", "1e24B/s", "B/s", false},
	PercentBound:     {0, MaxPercent, false, "a percentage", "", "1000000%", "", true},
	SpeedupBound:     {MinSpeedup, MaxSpeedup, true, "a speedup", "0.001", "1000", "", false},
	RateBound:        {MinRate, MaxRate, true, "a rate", "1 bit/s (0.125B/s)", "1e24B/s", "B/s", false},
	FreqBound:        {MinFreq, MaxFreq, true, "a frequency", "1Hz", "1e24Hz", "Hz", false},
	SizeBound:        {0, MaxSize, false, "a size", "", "2^53 bytes (9007199254740992B)", "B", false},
}

// boundSlack is the relative rounding a bound allows: a value at a bound
// in the unit it was written in (a year as 31557600000000000ns) may
// convert to a hair beyond it. Messages show ten digits, which tell any
// value beyond that from the bound.
const boundSlack = 1e-9

// Holds reports whether x is within the bound (NaN never is): cheap
// enough to ask of every field of a file, or every link of a
// million-node network, before naming any.
func (p ParamBound) Holds(x float64) bool {
	b := &paramBounds[p]
	return x >= b.lo*(1-boundSlack) && x <= b.hi*(1+boundSlack) || b.zero && x == 0
}

// Check says why x, the value of the parameter called name, is out of the
// bound (NaN and ±Inf are), or returns "". The value is shown in the
// bound's base unit.
func (p ParamBound) Check(name string, x float64) string {
	if p.Holds(x) {
		return ""
	}
	b := &paramBounds[p]
	shown := lang.FormatNumber(x) + b.unit
	switch {
	case math.IsInf(x, 0) || x != x:
		shown = lang.FormatNumber(x)
	case b.percent:
		shown = lang.FormatNumber(x*100) + "%"
	}
	return p.Explain(name, x, shown)
}

// Explain says why x, out of the bound, is out of it, naming the
// parameter name and showing its value as shown; "" if it is within.
// Check is Explain with the value shown in the bound's base unit.
func (p ParamBound) Explain(name string, x float64, shown string) string {
	b := &paramBounds[p]
	switch {
	case x != x:
		return fmt.Sprintf("%s = %s is not a number", name, shown)
	case x > b.hi*(1+boundSlack):
		return fmt.Sprintf("%s = %s is too large: %s is at most %s", name, shown, b.what, b.hiText)
	case x < b.lo*(1-boundSlack) && !(b.zero && x == 0):
		if x < 0 {
			return fmt.Sprintf("%s must not be negative, got %s", name, shown)
		}
		if b.zero {
			return fmt.Sprintf("%s = %s is too small: %s other than 0 is at least %s", name, shown, b.what, b.loText)
		}
		if x == 0 {
			return fmt.Sprintf("%s = %s: %s must be positive, at least %s", name, shown, b.what, b.loText)
		}
		return fmt.Sprintf("%s = %s is too small: %s is at least %s", name, shown, b.what, b.loText)
	}
	return ""
}

// Range is the bound as the language reference gives it: "0 to a year
// (31557600s)".
func (p ParamBound) Range() string {
	b := &paramBounds[p]
	switch {
	case b.lo == 0:
		return "0 to " + b.hiText
	case b.zero:
		return "0, or " + b.loText + " to " + b.hiText
	}
	return b.loText + " to " + b.hiText + "; never 0"
}

// CheckClockField says why x, an argument of the clock field name (a
// fixed value, or a bound, mean or deviation of its distribution:
// clock_offset, clock_drift or clock_jitter), is out of bounds, or "".
// An offset or a drift may be negative; the simulator adds the one to its
// times and multiplies them by 1 + the other.
func CheckClockField(name string, x float64) string {
	switch {
	case name == "clock_drift" && x > MaxDrift: // below, it must be above -1 (Clock.Check)
		return fmt.Sprintf("%s = %s is too large: a clock's rate error is at most 1 (a clock that runs twice as fast)", name, lang.FormatNumber(x))
	case name != "clock_drift" && !TimeBound.Holds(math.Abs(x)):
		what := strings.TrimPrefix(name, "clock_")
		return fmt.Sprintf("%s = %ss is too large: a clock's %s is at most a year (31557600s) either way", name, lang.FormatNumber(x), what)
	}
	return ""
}
