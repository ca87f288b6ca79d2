package eval

import (
	"fmt"
	"math"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// Local clocks (seed 004 §3.2). Every processor has a clock that a program
// reads with now() and waits on with until(t). Reading it at true time t
// gives
//
//	t·(1 + clock_drift) + clock_offset + ε
//
// where clock_offset and clock_drift are drawn once per run for each
// processor and ε, the read jitter (the error term of seed 004 §3.2.1), is
// drawn anew at every read from clock_jitter. A field is a value, or a
// draw from the run's random generator: uniform(a, b) or normal(mean, sd).
// A plain clock_jitter j means uniform(-j, j): a jitter of ±j. With none of
// them given a clock is perfect (it reads the true time).
//
// uniform and normal describe a distribution, not a value, so they belong
// to these fields only; anywhere else they are an error at the call. In an
// expression (processor(x).clock_offset) a random field reads as its mean.

// clockFields are the processor fields that may draw from the run's
// random generator, with the dimension each must have.
var clockFields = map[string]lang.Dim{
	"clock_offset": lang.TimeDim,
	"clock_drift":  lang.Dimensionless,
	"clock_jitter": lang.TimeDim,
}

func init() {
	for _, name := range []string{"uniform", "normal"} {
		// The message names no arguments: the compiler also calls apply
		// with probe values to learn the result's unit.
		builtins[name] = builtinFn{arity: 2, apply: func(name string, _ []lang.Value) (lang.Value, string) {
			return lang.Value{}, fmt.Sprintf("%s(…) draws a new value for every run, so only a processor's clock fields take it (clock_offset, clock_drift, clock_jitter)", name)
		}}
	}
}

// Clock returns the local clock of nodes of type nt in t's machine.
// Loading has checked every clock field, so none fails here.
func (t *Topology) Clock(nt *NodeType) runtime.Clock {
	var c runtime.Clock
	if nt == nil || nt.Kind != "processor" {
		return c
	}
	for name, dst := range map[string]*runtime.Dist{"clock_offset": &c.Offset, "clock_drift": &c.Drift, "clock_jitter": &c.Jitter} {
		if f := nt.obj.field(name); f != nil && !f.decl.IsFunc() {
			if d, err := t.m.clockDist(f); err == nil {
				*dst = d
			}
		}
	}
	return c
}

// evalClockField evaluates a clock field: its distribution's mean, after
// checking the distribution.
func (m *Machine) evalClockField(f *field) (lang.Value, error) {
	d, err := m.clockDist(f)
	if err != nil {
		return lang.Value{}, err
	}
	v := lang.Quantity(d.Mean(), clockFields[f.name])
	if f.name == "clock_jitter" && d.Kind == runtime.DistUniform && d.A == -d.B {
		v = lang.Quantity(d.B, lang.TimeDim) // ±j reads as j, as it is written
	}
	return v, m.checkOverride(f, v)
}

// clockDist reads a clock field's distribution: uniform(a, b) or
// normal(m, s) at the top of its expression, else a fixed value.
func (m *Machine) clockDist(f *field) (runtime.Dist, error) {
	dim := clockFields[f.name]
	e := f.decl.Value
	kind, args := runtime.DistFixed, []lang.Expr{e}
	if call, ok := e.(*lang.Call); ok {
		if id, ok := call.Fn.(*lang.Ident); ok {
			if b := m.res.get(id); b != nil && b.kind == bBuiltin && (id.Name == "uniform" || id.Name == "normal") {
				if len(call.Args) != 2 {
					return runtime.Dist{}, errAt(call, "%s takes two arguments, got %d: %s", id.Name, len(call.Args), map[string]string{
						"uniform": "uniform(LOW, HIGH)", "normal": "normal(MEAN, SD)"}[id.Name])
				}
				kind, args = runtime.DistUniform, call.Args
				if id.Name == "normal" {
					kind = runtime.DistNormal
				}
			}
		}
	}
	vals := make([]float64, len(args))
	for i, a := range args {
		v, err := m.evalExpr(a, f.obj)
		if err != nil {
			return runtime.Dist{}, err
		}
		if v.Kind != lang.Number || v.Dim != dim {
			want := "a time such as 1us"
			if dim == lang.Dimensionless {
				want = "a plain number such as 1e-6 (one part per million)"
			}
			return runtime.Dist{}, errAt(a, "%s takes %s, got %s", quoteField(f.name), want, describeValue(v))
		}
		if math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
			return runtime.Dist{}, errAt(a, "%s must be finite, got %s", quoteField(f.name), v)
		}
		if msg := runtime.CheckClockField(f.name, v.Num); msg != "" {
			return runtime.Dist{}, errAt(a, "%s", msg)
		}
		vals[i] = v.Num
	}
	d := runtime.Dist{Kind: kind, A: vals[0]}
	switch kind {
	case runtime.DistUniform:
		d.B = vals[1]
		if d.B < d.A {
			return runtime.Dist{}, errAt(e, "uniform(LOW, HIGH) needs LOW ≤ HIGH, got %s", d.Format(dim))
		}
	case runtime.DistNormal:
		d.B = vals[1]
		if d.B < 0 {
			return runtime.Dist{}, errAt(args[1], "normal(MEAN, SD) needs SD ≥ 0, got %s", lang.FormatQuantity(d.B, dim))
		}
	case runtime.DistFixed:
		if f.name == "clock_jitter" {
			if d.A < 0 {
				return runtime.Dist{}, errAt(e, "clock_jitter = j means a jitter of ±j, so j must not be negative; got %s (for an error drawn from a range, write uniform(LOW, HIGH))", lang.FormatQuantity(d.A, dim))
			}
			d = runtime.Dist{Kind: runtime.DistUniform, A: -d.A, B: d.A}
		}
	}
	if f.name == "clock_drift" && (d.A <= -1 || d.Kind == runtime.DistUniform && d.B <= -1) {
		what := "clock_drift must be above -1"
		if d.Kind == runtime.DistNormal {
			what = "the mean of clock_drift must be above -1"
		}
		return runtime.Dist{}, errAt(e, "%s (a clock that stops or runs backwards), got %s", what, d.Format(dim))
	}
	return d, nil
}
