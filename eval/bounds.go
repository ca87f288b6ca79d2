package eval

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
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

// A topology's latency and speed are defaults: a link that sets its own
// never takes them. Where every link takes one (a generated topology
// whose link template, if any, does not set it) it is held to its bound
// at its field, with the rest of the file's fields (fieldBound); where
// links may set their own, at the first link that takes it, at the
// default's value and naming the link (takenDefaults). One out of bounds
// that no link takes is a warning (warnUntakenDefaults). So a topology
// whose every link sets its speed loads whatever its unused default says.
func isLinkDefault(kind, name string) bool {
	return kind == "topology" && (name == "latency" || name == "speed")
}

// boundDeferred reports whether a field's bound is held where links take
// it rather than at the field: a default that some link may not take.
func boundDeferred(f *field) bool {
	return isLinkDefault(f.obj.kind, f.name) && !everyLinkTakes(f.obj, f.name)
}

// everyLinkTakes reports whether every link of a topology takes its
// default name: a generated one whose link template does not set it.
func everyLinkTakes(o *object, name string) bool {
	if o.gen == nil {
		return false
	}
	if o.template != nil {
		for _, s := range o.template.Body {
			if f, ok := s.(*lang.Field); ok && !f.IsFunc() && canonicalLink(f.Name) == name {
				return false
			}
		}
	}
	return true
}

// fieldBound reports, at its value, a field out of its bound; a default
// that every link takes says so.
func fieldBound(f *field, t fieldType, v lang.Value) error {
	msg := boundMessage(f.obj.kind, f.name, t, v)
	switch {
	case msg == "":
		return nil
	case isLinkDefault(f.obj.kind, f.name):
		why := "it has no link template"
		if f.obj.template != nil {
			why = "its link template sets no " + f.name
		}
		return errAt(f.decl.Value, "%s; every link of topology %s takes it (%s)", msg, quoteLabel(f.obj.label), why)
	}
	return errAt(f.decl.Value, "%s", msg)
}

// readDefault: an expression that reads a topology's latency or speed
// takes it as a link would, so the bound holds there too, at the reading,
// with a note at the default.
func readDefault(f *field, v lang.Value, e lang.Expr) error {
	if !isLinkDefault(f.obj.kind, f.name) {
		return nil
	}
	msg := boundMessage("link", f.name, linkFieldType(f.name), v)
	if msg == "" {
		return nil
	}
	d := errAt(e, "%s reads the topology's %s", format.Expr(e), msg)
	d.Notes = append(d.Notes, lang.Note{Pos: lang.Start(f.decl.Value), Msg: "the topology's " + f.name + " is given here"})
	return d
}

// defaultsHold reports whether the topology's defaults that a link takes
// (its latency, its speed) are within their bounds: two comparisons, as
// every link of a large file asks. A speed not given is no default; the
// callers say a link needs one.
func (r *realizer) defaultsHold(takesLat, takesSpd bool) bool {
	lat, spd, ok := r.topologyDefaultsQuiet()
	return (!takesLat || timeBound.holds(lat)) && (!takesSpd || !ok || linkRateBound.holds(spd))
}

// takenDefaults reports, at each default out of its bound that who takes
// (takesLat, takesSpd), why it is out and who takes it; why says why
// who takes it. Only the first taker is named: the default is one
// mistake, however many links take it.
func (r *realizer) takenDefaults(takesLat, takesSpd bool, who, why string) lang.Diagnostics {
	if r.takenReported {
		return nil
	}
	r.takenReported = true
	var out lang.Diagnostics
	for _, d := range [2]struct {
		name  string
		takes bool
	}{{"latency", takesLat}, {"speed", takesSpd}} {
		f := r.obj.field(d.name)
		if !d.takes || f == nil || f.decl.IsFunc() || f.failure() != nil {
			continue
		}
		if msg := boundMessage("link", d.name, linkFieldType(d.name), f.val); msg != "" {
			out = append(out, errAt(f.decl.Value, "%s; %s takes it (%s)", msg, who, fmt.Sprintf(why, d.name)))
		}
	}
	return out
}

// checkNICDefaults: the links nic = yes adds take the topology's latency
// and speed where it sets no nic_latency or nic_speed.
func (r *realizer) checkNICDefaults() {
	f := r.obj.field("nic")
	if f == nil || f.decl.IsFunc() || !r.val(f).Truth() {
		return
	}
	given := func(name string) bool {
		g := r.obj.field(name)
		return g != nil && !g.decl.IsFunc()
	}
	takesLat, takesSpd := !given("nic_latency"), !given("nic_speed")
	if !r.defaultsHold(takesLat, takesSpd) {
		r.errs.Append(r.takenDefaults(takesLat, takesSpd, "every nic link", "the topology sets no nic_%s"))
	}
}

// warnUntakenDefaults: a topology's latency or speed out of its bound
// that no link takes (the machine loaded, so none does) is legal but
// probably not what its author meant.
func (m *Machine) warnUntakenDefaults(t *Topology) {
	for _, name := range []string{"latency", "speed"} {
		f := t.obj.field(name)
		if f == nil || f.decl.IsFunc() || f.failure() != nil {
			continue
		}
		if msg := boundMessage("link", name, linkFieldType(name), f.val); msg != "" {
			d := lang.Warningf(lang.Start(f.decl.Value), "%s; no link takes it, as every link of topology %s sets its own", msg, quoteLabel(t.Label))
			m.warns = append(m.warns, d.Span(lang.End(f.decl.Value)))
		}
	}
}

// linkName names a link statement's link as it is written: link A -- B,
// or bus A, B, C.
func linkName(s *lang.Link, ids []int) string {
	word, sep := "link ", " -- "
	if s.Bus {
		word, sep = "bus ", ", "
	}
	var b strings.Builder
	b.WriteString(word)
	for i, id := range ids {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(strconv.Itoa(id))
	}
	return b.String()
}
