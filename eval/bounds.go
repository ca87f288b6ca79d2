package eval

import (
	"fmt"
	"math"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// The bounds of machine parameters. Arithmetic already refuses ±Inf and
// NaN, but a finite value can still be absurd: a latency of 1e308 s is a
// float64, and the simulator's latency × hops or bytes ÷ speed of it is
// not. Each bound is far beyond what any physical machine approaches, and
// together they keep every product the analytic model and the simulator
// form finite by a wide margin: a message is at most 2^53 B
// (runtime.Options.Size), so at the slowest rate one hop takes under
// 10^17 s, and stored and forwarded over 2^27 hops (the most nodes a
// graph has) under 10^25 s. docs/LANGUAGE.md (Values and units) lists
// them; runtime.Spec's validation applies the same ones.
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

// bound is the range a value of a field may take.
type bound struct {
	lo, hi float64
	// zero: 0 is allowed below lo (a rate of 0 where it means none).
	zero bool
	// what names the kind of value, and loText and hiText the bounds, for
	// a message: "a time is at most a year (31557600s)".
	what, loText, hiText string
}

var (
	timeBound        = bound{0, MaxTime, false, "a time", "", "a year (31557600s)"}
	timePerByteBound = bound{0, MaxTimePerByte, false, "a time per byte", "", "8s/B (a 1 bit/s link's)"}
	rateBound        = bound{MinRate, MaxRate, true, "a rate", "1 bit/s (0.125B/s)", "1e24B/s"}
	linkRateBound    = bound{MinRate, MaxRate, false, "a link's speed", "1 bit/s (0.125B/s)", "1e24B/s"}
	freqBound        = bound{MinFreq, MaxFreq, true, "a frequency", "1Hz", "1e24Hz"}
	sizeBound        = bound{0, MaxSize, false, "a size", "", "2^53 bytes (9007199254740992B)"}
	percentBound     = bound{0, MaxPercent, false, "a percentage", "", "1000000%"}
	speedupBound     = bound{MinSpeedup, MaxSpeedup, true, "a speedup", "0.001", "1000"}
)

// boundDocs are the bounds as docs/LANGUAGE.md lists them (Values and
// units), by the fields they apply to.
var boundDocs = []struct {
	fields string
	b      bound
}{
	{"time (latency, overheads, delays, `float_timings`, …)", timeBound},
	{"time per byte (`route_per_byte`)", timePerByteBound},
	{"link speed (`speed`, `linkspeed`, `nic_speed`)", linkRateBound},
	{"other rate (`maxspeed`, `maxtotalspeed`)", rateBound},
	{"frequency (`clock`)", freqBound},
	{"size (cache sizes; the packet fields have their own bounds)", sizeBound},
	{"percentage (`maxrecvdelay`, `maxroutedelay`)", percentBound},
	{"`speedup` (0: not modelled)", speedupBound},
}

// rangeDoc is the range of b, for the language reference.
func (b bound) rangeDoc() string {
	switch {
	case b.lo == 0:
		return "0 to " + b.hiText
	case b.zero:
		return "0, or " + b.loText + " to " + b.hiText
	}
	return b.loText + " to " + b.hiText + "; never 0"
}

// boundOf is the range of a field of a block kind, by its schema type, or
// false for a field without one (a count is bounded where it is used).
func boundOf(kind, name string, t fieldType) *bound {
	switch {
	case kind == "topology" && (name == "speed" || name == "nic_speed"), kind == "link" && (name == "speed" || name == "linkspeed"):
		return &linkRateBound
	case kind == "topology" && name == "speedup":
		return &speedupBound
	case kind == "topology" && isPacketField(name):
		return nil // checkPacketFields holds them to their own bounds
	}
	switch t {
	case tTime:
		return &timeBound
	case tTimePerByte:
		return &timePerByteBound
	case tRate:
		return &rateBound
	case tFreq:
		return &freqBound
	case tSize:
		return &sizeBound
	case tPercent:
		return &percentBound
	}
	return nil
}

// holds reports whether x is within b: the check of every field of a
// file, so it builds no message. A value at a bound in the unit it was
// written in (a year as 31557600000000000ns) may convert to a hair beyond
// it, so b's ends give by boundSlack; messages show ten digits, which tell
// any value beyond that from the bound.
func (b bound) holds(x float64) bool {
	return x >= b.lo*(1-boundSlack) && x <= b.hi*(1+boundSlack) || b.zero && x == 0
}

// boundSlack is the relative rounding a bound allows.
const boundSlack = 1e-9

// check returns why x is out of b, or "". name and shown are the field and
// its value as the message gives them.
func (b bound) check(name string, x float64, shown string) string {
	switch {
	case x != x:
		return fmt.Sprintf("%s = %s is not a number", name, shown)
	case x > b.hi:
		return fmt.Sprintf("%s = %s is too large: %s is at most %s", name, shown, b.what, b.hiText)
	case x < b.lo && !(b.zero && x == 0):
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

// checkBound reports, at e, a field value out of its bound.
func checkBound(kind, name string, t fieldType, v lang.Value, e lang.Expr) error {
	if msg := boundMessage(kind, name, t, v); msg != "" {
		return errAt(e, "%s", msg)
	}
	return nil
}

// boundMessage says why a field's value is out of its bound, or "".
func boundMessage(kind, name string, t fieldType, v lang.Value) string {
	b := boundOf(kind, name, t)
	if b == nil || v.Kind != lang.Number || b.holds(v.Num) {
		return ""
	}
	// In base units, as the bounds are given: a value far out of range
	// reads no better in a larger one (1e+21GB/s against 1e24 B/s).
	shown := lang.FormatNumber(v.Num) + baseUnit[t]
	if v.Num < 0 {
		shown = v.String() // as the schema's own check says it
	}
	if t == tPercent {
		shown = lang.FormatNumber(v.Num*100) + "%"
	}
	return b.check(quoteField(name), v.Num, shown)
}

func isPacketField(name string) bool {
	for _, pf := range packetFields {
		if pf.name == name {
			return true
		}
	}
	return false
}

var baseUnit = map[fieldType]string{tTime: "s", tTimePerByte: "s/B", tRate: "B/s", tFreq: "Hz", tSize: "B"}

// clockBound says why an argument of a clock field (a fixed value, or a
// bound, mean or deviation of its distribution) is out of bounds, or "".
// An offset or a drift may be negative; the simulator adds the one to its
// times and multiplies them by 1 + the other.
func clockBound(name string, x float64) string {
	switch {
	case name == "clock_drift" && x > MaxDrift: // below, it must be above -1 (clockDist)
		return fmt.Sprintf("%s = %s is too large: a clock's rate error is at most 1 (a clock that runs twice as fast)", name, lang.FormatNumber(x))
	case name != "clock_drift" && !timeBound.holds(math.Abs(x)):
		what := strings.TrimPrefix(name, "clock_")
		return fmt.Sprintf("%s = %ss is too large: a clock's %s is at most a year (31557600s) either way", name, lang.FormatNumber(x), what)
	}
	return ""
}

// CheckCost reports a primitive's cost that no simulation can be set
// beside: a time below 0, or one so short that the relative difference
// from a simulated time could overflow (below MinCost). The error points
// at the function's body. v is a result of f.Call.
func (f *Func) CheckCost(v lang.Value) error {
	if v.Kind != lang.Number || v.Dim != lang.TimeDim {
		return nil
	}
	body := f.fn.f.decl.Value
	switch {
	case v.Num < 0:
		return errAt(body, "%s gives %s: a cost must not be negative", f.path, v)
	case v.Num > 0 && v.Num < MinCost:
		return errAt(body, "%s gives %ss: a cost other than 0 is at least 1e-18s (an attosecond)", f.path, lang.FormatNumber(v.Num))
	}
	return nil
}

// MinCost is the shortest cost other than 0 that a primitive may give: a
// simulated time, finite by a wide margin under the bounds above, divided
// by it stays a number.
const MinCost = 1e-18

// ParamBound is the bound of a kind of machine parameter, for code that
// fills a runtime.Spec without a machine file: the same bound, and the
// same message, as a field of that kind gets while loading.
type ParamBound uint8

const (
	TimeBound        ParamBound = iota // seconds, 0 to MaxTime
	TimePerByteBound                   // seconds per byte, 0 to MaxTimePerByte
	LinkSpeedBound                     // bytes per second, MinRate to MaxRate
	PercentBound                       // a fraction (0.3 for 30%), 0 to MaxPercent
	SpeedupBound                       // 0, or MinSpeedup to MaxSpeedup
)

var paramBounds = [...]struct {
	b *bound
	t fieldType
}{
	TimeBound:        {&timeBound, tTime},
	TimePerByteBound: {&timePerByteBound, tTimePerByte},
	LinkSpeedBound:   {&linkRateBound, tRate},
	PercentBound:     {&percentBound, tPercent},
	SpeedupBound:     {&speedupBound, tNumber},
}

// Holds reports whether x is within the bound: cheap enough to ask of
// every link of a million-node network before naming any.
func (p ParamBound) Holds(x float64) bool { return paramBounds[p].b.holds(x) }

// Check says why x, the value of the parameter called name, is out of the
// bound (NaN and ±Inf are), or returns "".
func (p ParamBound) Check(name string, x float64) string {
	b, t := paramBounds[p].b, paramBounds[p].t
	if b.holds(x) {
		return ""
	}
	shown := lang.FormatNumber(x) + baseUnit[t]
	switch {
	case math.IsInf(x, 0) || x != x:
		shown = lang.FormatNumber(x)
	case t == tPercent:
		shown = lang.FormatNumber(x*100) + "%"
	}
	return b.check(name, x, shown)
}

// Check says why a clock is out of the bounds of the clock fields, or "".
func (c Clock) Check() string {
	for _, f := range []struct {
		name string
		d    Dist
	}{{"clock_offset", c.Offset}, {"clock_drift", c.Drift}, {"clock_jitter", c.Jitter}} {
		for _, x := range []float64{f.d.A, f.d.B} {
			if x != x {
				return f.name + " is not a number"
			}
			if msg := clockBound(f.name, x); msg != "" {
				return msg
			}
		}
	}
	if c.Drift.A <= -1 {
		return fmt.Sprintf("clock_drift must be above -1 (a clock that stops or runs backwards), got %s", c.Drift.Format(lang.Dimensionless))
	}
	return ""
}
