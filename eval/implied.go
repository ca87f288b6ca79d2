package eval

import "github.com/parasol-lang/parasol/lang"

func init() {
	builtins["implied"] = builtinFn{arity: 2, apply: impliedUnit}
}

// impliedUnit is implied(x, unit): x when it has a unit, x times unit when
// it is a plain number. It is Parasol I's implied unit as a function, which
// `parasol import` writes where a legacy value is taken in nanoseconds only
// if it turns out plain when it is computed: in a primitive f(n) = n * 2, n
// may be a count (f(3) is 6 ns) or a time (f(3us) is 6 us).
func impliedUnit(name string, a []lang.Value) (lang.Value, string) {
	x, u := a[0], a[1]
	if u.Dim == lang.Dimensionless {
		return lang.Value{}, name + ": the unit must have a dimension, e.g. 1ns, not be a plain number"
	}
	if x.Dim != lang.Dimensionless {
		return x, ""
	}
	return lang.Quantity(x.Num*u.Num, u.Dim), ""
}

// impliedCall compiles implied(x, unit). Unlike the other built-ins it takes
// an x of any kind and gives back a bool or a name as it is, as Parasol I's
// rule does (Machine.check, function.legacyNs): import writes implied(…)
// around values that may be either, such as a primitive's parameter, which
// a caller may pass a bool, or a call of a primitive whose branches give a
// number and a bool.
func (c *compiler) impliedCall(e *lang.Call, sc *scope) (cexpr, error) {
	if len(e.Args) != 2 {
		return c.builtin(e, "implied", builtins["implied"], sc) // reports the count
	}
	x, err := c.compile(e.Args[0], sc)
	if err != nil {
		return x, err
	}
	u, err := c.compile(e.Args[1], sc)
	if err != nil {
		return u, err
	}
	if u.known && u.kind != lang.Number {
		return u, lang.Errorf(e.Args[1].ExprPos(), "implied needs a number for the unit, got a %s", u.TypeName())
	}
	pos := e.Pos
	run := func(fr *frame) lang.Value {
		v := x.run(fr)
		if v.Kind != lang.Number {
			return v
		}
		unit := u.run(fr)
		if unit.Kind != lang.Number {
			return fr.fail(pos, "implied needs a number for the unit, got a %s", unit.TypeName())
		}
		out, msg := impliedUnit("implied", []lang.Value{v, unit})
		if msg != "" {
			return fr.fail(pos, "%s", msg)
		}
		if !finite(out.Num) {
			return fr.fail(pos, "overflow: %s is beyond the largest number (about 1.8e308)", callText("implied", []lang.Value{v, unit}))
		}
		return out
	}
	out := cexpr{run: run}
	switch {
	case x.known && x.kind != lang.Number:
		out.known, out.kind = true, x.kind
	case x.known && u.known:
		v, msg := impliedUnit("implied", []lang.Value{lang.Quantity(1, x.dim), lang.Quantity(1, u.dim)})
		if msg != "" {
			return out, lang.Errorf(pos, "%s", msg)
		}
		out.known, out.kind, out.dim = true, lang.Number, v.Dim
	}
	return c.fold(out, x, u)
}
