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
