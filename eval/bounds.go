package eval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/runtime"
)

// A machine file's fields are held, while loading, to the bounds the
// runtime gives its Spec's parameters (runtime.ParamBound, runtime.MaxTime
// and the rest), at their positions: boundOf says which bound a field has.
// docs/LANGUAGE.md (Values and units) lists them.

// boundDocs are the bounds as docs/LANGUAGE.md lists them (Values and
// units), by the fields they apply to.
var boundDocs = []struct {
	fields string
	b      runtime.ParamBound
}{
	{"time (latency, overheads, delays, `float_timings`, …)", runtime.TimeBound},
	{"time per byte (`route_per_byte`)", runtime.TimePerByteBound},
	{"link speed (`speed`, `linkspeed`, `nic_speed`)", runtime.LinkSpeedBound},
	{"other rate (`maxspeed`, `maxtotalspeed`)", runtime.RateBound},
	{"frequency (`clock`)", runtime.FreqBound},
	{"size (cache sizes; the packet fields have their own bounds)", runtime.SizeBound},
	{"percentage (`maxrecvdelay`, `maxroutedelay`)", runtime.PercentBound},
	{"`speedup` (0: not modelled)", runtime.SpeedupBound},
}

// boundOf is the bound of a field of a block kind, by its schema type, or
// false for a field without one (a count is bounded where it is used).
func boundOf(kind, name string, t fieldType) (runtime.ParamBound, bool) {
	switch {
	case kind == "topology" && (name == "speed" || name == "nic_speed"), kind == "link" && (name == "speed" || name == "linkspeed"):
		return runtime.LinkSpeedBound, true
	case kind == "topology" && name == "speedup":
		return runtime.SpeedupBound, true
	case kind == "topology" && isPacketField(name):
		return 0, false // checkPacketFields holds them to their own bounds
	}
	switch t {
	case tTime:
		return runtime.TimeBound, true
	case tTimePerByte:
		return runtime.TimePerByteBound, true
	case tRate:
		return runtime.RateBound, true
	case tFreq:
		return runtime.FreqBound, true
	case tSize:
		return runtime.SizeBound, true
	case tPercent:
		return runtime.PercentBound, true
	}
	return 0, false
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
	if (kind == "processor" || kind == "nic") && (name == "cpus" || name == "nics") && v.Kind == lang.Number && v.Num > runtime.MaxUnits {
		return fmt.Sprintf("%s = %s: a processor has at most %d (an operation names its CPU and NIC in a byte)", quoteField(name), lang.FormatNumber(v.Num), runtime.MaxUnits)
	}
	b, ok := boundOf(kind, name, t)
	if !ok || v.Kind != lang.Number || b.Holds(v.Num) {
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
	return b.Explain(quoteField(name), v.Num, shown)
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
	return (!takesLat || runtime.TimeBound.Holds(lat)) && (!takesSpd || !ok || runtime.LinkSpeedBound.Holds(spd))
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
