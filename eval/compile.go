package eval

import (
	"fmt"
	"math"
	"strconv"

	"github.com/parasol-lang/parasol/lang"
)

// The compiler turns an expression into a tree of closures over a frame of
// value slots. Names are resolved while compiling: a machine field becomes
// the constant it evaluates to, a parameter or loop variable a slot index,
// so evaluation does no map look-ups and no allocation. Dimensions are
// checked while compiling wherever both operands' dimensions are known
// (always, outside function bodies with unannotated parameters); the rest
// are checked as the closure runs.

// Limits that keep evaluation bounded.
const (
	MaxCallDepth = 256
	MaxSumLength = 5_000_000
	// MaxSteps bounds the function calls and sum terms of one evaluation,
	// so that exponential recursion ends with an error instead of hanging.
	MaxSteps = 5_000_000
)

//go:generate go run ./internal/genarith -o arith_gen.go

type code func(fr *frame) lang.Value

// cexpr is a compiled expression and what is known about it statically.
type cexpr struct {
	run   code
	konst bool       // run always returns val
	val   lang.Value // the constant, when konst
	known bool       // kind and dim are known statically
	kind  lang.Kind
	dim   lang.Dim
	// isSlot: run only loads slot (a parameter), for fused operators.
	isSlot bool
	slot   int
}

// literal is the value of a number or bool literal, which compiles to a
// constant: loading takes it as written instead of compiling a closure for
// each of the many numbers of a large machine file. A number too large to
// be finite is left to the compiler, which reports it.
func literal(e lang.Expr) (lang.Value, bool) {
	switch e := e.(type) {
	case *lang.NumberLit:
		return e.Value, finite(e.Value.Num)
	case *lang.BoolLit:
		return lang.BoolValue(e.Value), true
	}
	return lang.Value{}, false
}

func constant(v lang.Value) cexpr {
	return cexpr{run: func(*frame) lang.Value { return v }, konst: true, val: v, known: true, kind: v.Kind, dim: v.Dim}
}

// frame is the evaluation state of one query: a stack of slots shared by
// nested function calls, and the first runtime error.
type frame struct {
	stack []lang.Value
	// args holds the arguments of the builtin calls under way, each
	// call's above its caller's (compiler.builtin).
	args  []lang.Value
	base  int
	depth int
	steps int
	err   *lang.Diagnostic
}

func (fr *frame) fail(pos lang.Pos, format string, args ...any) lang.Value {
	if fr.err == nil {
		fr.err = lang.Errorf(pos, format, args...)
	}
	return lang.Value{}
}

// scope maps local names (function parameters, loop and sum variables) to
// slots, and knows the object whose fields bare names refer to.
type scope struct {
	obj    *object
	locals map[string]local
	parent *scope // enclosing scope (a sum inside a function)
	nslots *int   // slots used by the function being compiled
}

type local struct {
	slot  int
	known bool // the local's type is known statically (annotated, or a loop variable)
	kind  lang.Kind
	dim   lang.Dim
	// konst is set for loop variables bound at topology expansion time.
	konst *lang.Value
}

func (s *scope) lookup(name string) (local, bool) {
	for ; s != nil; s = s.parent {
		if l, ok := s.locals[name]; ok {
			return l, true
		}
	}
	return local{}, false
}

func (s *scope) newSlot() int {
	n := *s.nslots
	*s.nslots++
	return n
}

// compiler compiles expressions of one machine.
type compiler struct {
	m *Machine
	// res is what the resolver decided of each name; nil means the
	// machine's own table (a query brings a table of its own above it).
	res *resolution
	// dead is above zero while compiling a branch that a constant
	// condition never takes (if false then 1/0 else 1): its names and
	// types are still checked, but its constant arithmetic is not folded,
	// so a guarded division by a zero parameter is no error.
	dead int
}

// binding is the resolver's decision for a name node.
func (c *compiler) binding(e lang.Expr) *binding {
	if c.res != nil {
		return c.res.get(e)
	}
	return c.m.res.get(e)
}

func (c *compiler) compile(e lang.Expr, sc *scope) (cexpr, error) {
	switch e.(type) {
	case *lang.Binary, *lang.StringLit:
		// A word written with hyphens (short-queue) or a string the
		// resolver has already found wanting.
		if b := c.binding(e); b != nil {
			switch b.kind {
			case bWord:
				return constant(lang.StringValue(b.name)), nil
			case bBad:
				return cexpr{}, depError{b.err}
			}
		}
	}
	switch e := e.(type) {
	case *lang.NumberLit:
		if !finite(e.Value.Num) {
			return cexpr{}, lang.Errorf(e.Pos, "the number %s is too large (the largest is about 1.8e308)", e.Text)
		}
		return constant(e.Value), nil
	case *lang.StringLit:
		return constant(lang.StringValue(e.Value)), nil
	case *lang.BoolLit:
		return constant(lang.BoolValue(e.Value)), nil
	case *lang.Ident:
		return c.ident(e, sc)
	case *lang.Unary:
		return c.unary(e, sc)
	case *lang.Binary:
		return c.binary(e, sc)
	case *lang.Cond:
		return c.cond(e, sc)
	case *lang.Sum:
		return c.sum(e, sc)
	case *lang.Call:
		return c.call(e, sc)
	case *lang.Select:
		return c.ref(e, sc)
	}
	return cexpr{}, lang.Errorf(e.ExprPos(), "cannot evaluate %T", e)
}

func (c *compiler) ident(e *lang.Ident, sc *scope) (cexpr, error) {
	b := c.binding(e)
	switch {
	case b == nil:
		return cexpr{}, unresolved(e)
	case b.kind == bBad:
		return cexpr{}, depError{b.err}
	case b.kind != bLocal:
		return c.ref(e, sc)
	}
	l, ok := sc.lookup(e.Name)
	if !ok {
		return cexpr{}, unresolved(e)
	}
	if l.konst != nil {
		return constant(*l.konst), nil
	}
	slot := l.slot
	return cexpr{run: func(fr *frame) lang.Value { return fr.stack[fr.base+slot] }, known: l.known, kind: l.kind, dim: l.dim,
		isSlot: l.known && l.kind == lang.Number, slot: slot}, nil
}

func (c *compiler) unary(e *lang.Unary, sc *scope) (cexpr, error) {
	x, err := c.compile(e.X, sc)
	if err != nil {
		return x, err
	}
	pos := e.Pos
	var out cexpr
	switch e.Op {
	case lang.Sub, lang.Add:
		if x.known && x.kind != lang.Number {
			return x, lang.Errorf(pos, "unary %s needs a number, got a %s", e.Op, x.kind)
		}
		if e.Op == lang.Add {
			return x, nil
		}
		xr := x.run
		out = cexpr{known: x.known, kind: lang.Number, dim: x.dim}
		if x.known {
			out.run = func(fr *frame) lang.Value { v := xr(fr); v.Num = -v.Num; return v }
		} else {
			out.run = func(fr *frame) lang.Value {
				v := xr(fr)
				if v.Kind != lang.Number {
					return fr.fail(pos, "unary - needs a number, got a %s", v.Kind)
				}
				v.Num = -v.Num
				return v
			}
		}
	case lang.Not:
		if x.known && x.kind != lang.Bool {
			return x, lang.Errorf(pos, "not needs a bool, got a %s", x.TypeName())
		}
		xr := x.run
		out = cexpr{known: true, kind: lang.Bool, run: func(fr *frame) lang.Value {
			v := xr(fr)
			if v.Kind != lang.Bool {
				return fr.fail(pos, "not needs a bool, got a %s", v.TypeName())
			}
			return lang.BoolValue(!v.Truth())
		}}
	}
	return c.fold(out, x)
}

// TypeName describes a cexpr's static type.
func (x cexpr) TypeName() string {
	if x.kind == lang.Number {
		return x.dim.Name()
	}
	return x.kind.String()
}

// fold evaluates an expression at compile time when its operands are
// constants. Like Go's constant expressions, a constant one that fails
// (1/0, sqrt(-1), 10^400) is an error while loading, not a surprise at the
// first query; in a branch never taken it is left unfolded instead.
func (c *compiler) fold(out cexpr, operands ...cexpr) (cexpr, error) {
	for _, o := range operands {
		if !o.konst {
			return out, nil
		}
	}
	fr := &frame{}
	v := out.run(fr)
	if fr.err != nil {
		if c.dead > 0 {
			return out, nil
		}
		return out, fr.err
	}
	return constant(v), nil
}

// finite reports whether f is a number a query may answer: not ±Inf or
// NaN. One comparison, as NaN compares false.
func finite(f float64) bool { return math.Abs(f) <= math.MaxFloat64 }

// arithSite is where an arithmetic operator stands and the dimensions of
// its operands, for the message when its result is not a finite number.
type arithSite struct {
	pos    lang.Pos
	op     lang.Op
	dx, dy lang.Dim
}

// fail is the slow path of an operator whose result is not finite.
func (s *arithSite) fail(fr *frame, a, b float64) lang.Value {
	return fr.fail(s.pos, "%s", arithMessage(s.op, lang.Quantity(a, s.dx), lang.Quantity(b, s.dy)))
}

// arithMessage explains why a op b is not a finite number, naming the
// values involved: "division by zero: 5us / 0".
func arithMessage(op lang.Op, a, b lang.Value) string {
	expr := operandText(a) + " " + op.String() + " " + operandText(b)
	switch {
	case op == lang.Div && b.Num == 0, op == lang.Pow && a.Num == 0 && b.Num < 0:
		return "division by zero: " + expr
	case op == lang.Pow && a.Num < 0:
		return "domain error: " + expr + " is not a real number (a negative number to a fractional power)"
	}
	return "overflow: " + expr + " is beyond the largest number (about 1.8e308)"
}

// operandText prints a value for an arithmetic message, a negative one in
// parentheses so that (-8) ^ 0.5 reads as what was computed.
func operandText(v lang.Value) string {
	if v.Num < 0 {
		return "(" + v.String() + ")"
	}
	return v.String()
}

func (c *compiler) binary(e *lang.Binary, sc *scope) (cexpr, error) {
	x, err1 := c.compile(e.X, sc)
	// A constant left operand that decides and/or means the right one
	// never runs: p > 0 and n / p > 2 is no error when p is 0.
	decided := (e.Op == lang.And || e.Op == lang.Or) && err1 == nil && x.konst && x.kind == lang.Bool && x.val.Truth() != (e.Op == lang.And)
	if decided {
		c.dead++
	}
	y, err2 := c.compile(e.Y, sc)
	if decided {
		c.dead--
	}
	if err1 != nil {
		return x, err1
	}
	if err2 != nil {
		return y, err2
	}
	pos, op := e.Pos, e.Op
	bothKnown := x.known && y.known
	xr, yr := x.run, y.run
	switch op {
	case lang.And, lang.Or:
		for _, o := range []cexpr{x, y} {
			if o.known && o.kind != lang.Bool {
				return o, lang.Errorf(pos, "%s needs bools, got a %s", op, o.TypeName())
			}
		}
		and := op == lang.And
		out := cexpr{known: true, kind: lang.Bool, run: func(fr *frame) lang.Value {
			a := xr(fr)
			if a.Kind != lang.Bool {
				return fr.fail(pos, "%s needs bools, got a %s", op, a.TypeName())
			}
			if a.Truth() != and {
				return a
			}
			b := yr(fr)
			if b.Kind != lang.Bool {
				return fr.fail(pos, "%s needs bools, got a %s", op, b.TypeName())
			}
			return b
		}}
		return c.fold(out, x, y)
	case lang.Eq, lang.Ne:
		if bothKnown && (x.kind != y.kind || x.kind == lang.Number && x.dim != y.dim) {
			return x, lang.Errorf(pos, "cannot compare a %s with a %s", x.TypeName(), y.TypeName())
		}
		eq := op == lang.Eq
		out := cexpr{known: true, kind: lang.Bool, run: func(fr *frame) lang.Value {
			a, b := xr(fr), yr(fr)
			if a.Kind != b.Kind || a.Dim != b.Dim {
				return fr.fail(pos, "cannot compare a %s with a %s", a.TypeName(), b.TypeName())
			}
			return lang.BoolValue((a == b) == eq)
		}}
		return c.fold(out, x, y)
	}
	// Arithmetic and ordering need numbers.
	for _, o := range []cexpr{x, y} {
		if o.known && o.kind != lang.Number {
			return o, lang.Errorf(pos, "%s needs numbers, got a %s", op, o.TypeName())
		}
	}
	out := cexpr{known: bothKnown, kind: lang.Number}
	switch op {
	case lang.Add, lang.Sub:
		if bothKnown && x.dim != y.dim {
			return x, lang.Errorf(pos, "cannot %s a %s and a %s", verb(op), x.TypeName(), y.TypeName())
		}
		out.dim = x.dim
		sub := op == lang.Sub
		if bothKnown {
			out.run = fastArith(op, x, y, out.dim, &arithSite{pos: pos, op: op, dx: x.dim, dy: y.dim})
		} else {
			out.run = func(fr *frame) lang.Value {
				a, b := xr(fr), yr(fr)
				if a.Kind != lang.Number || b.Kind != lang.Number || a.Dim != b.Dim {
					return fr.fail(pos, "cannot %s a %s and a %s", verb(op), a.TypeName(), b.TypeName())
				}
				r := a.Num + b.Num
				if sub {
					r = a.Num - b.Num
				}
				if !finite(r) {
					return fr.fail(pos, "%s", arithMessage(op, a, b))
				}
				return lang.Value{Num: r, Dim: a.Dim}
			}
		}
	case lang.Mul, lang.Div:
		div := op == lang.Div
		if div {
			out.dim = x.dim.Div(y.dim)
		} else {
			out.dim = x.dim.Mul(y.dim)
		}
		if bothKnown {
			out.run = fastArith(op, x, y, out.dim, &arithSite{pos: pos, op: op, dx: x.dim, dy: y.dim})
		} else {
			out.run = func(fr *frame) lang.Value {
				a, b := xr(fr), yr(fr)
				if a.Kind != lang.Number || b.Kind != lang.Number {
					return fr.fail(pos, "%s needs numbers, got a %s and a %s", op, a.TypeName(), b.TypeName())
				}
				r, d := a.Num*b.Num, a.Dim.Mul(b.Dim)
				if div {
					r, d = a.Num/b.Num, a.Dim.Div(b.Dim)
				}
				if !finite(r) {
					return fr.fail(pos, "%s", arithMessage(op, a, b))
				}
				return lang.Value{Num: r, Dim: d}
			}
		}
	case lang.Pow:
		if y.known && y.dim != lang.Dimensionless {
			return y, lang.Errorf(pos, "an exponent must be a plain number, got a %s", y.TypeName())
		}
		if x.known && x.dim != lang.Dimensionless {
			if !y.konst || y.val.Num != math.Trunc(y.val.Num) || math.Abs(y.val.Num) > 8 {
				return y, lang.Errorf(pos, "a %s can only be raised to a constant whole power", x.TypeName())
			}
			out.dim = x.dim.Pow(int(y.val.Num))
		}
		out.run = func(fr *frame) lang.Value {
			a, b := xr(fr), yr(fr)
			if a.Kind != lang.Number || b.Kind != lang.Number || b.Dim != lang.Dimensionless {
				return fr.fail(pos, "^ needs a number and a plain exponent")
			}
			d := lang.Dimensionless
			if a.Dim != lang.Dimensionless {
				if b.Num != math.Trunc(b.Num) || math.Abs(b.Num) > 8 {
					return fr.fail(pos, "a %s can only be raised to a whole power", a.TypeName())
				}
				d = a.Dim.Pow(int(b.Num))
			}
			r := math.Pow(a.Num, b.Num)
			if !finite(r) {
				return fr.fail(pos, "%s", arithMessage(op, a, b))
			}
			return lang.Value{Num: r, Dim: d}
		}
	case lang.Lt, lang.Le, lang.Gt, lang.Ge:
		if bothKnown && x.dim != y.dim {
			return x, lang.Errorf(pos, "cannot compare a %s with a %s", x.TypeName(), y.TypeName())
		}
		out = cexpr{known: true, kind: lang.Bool}
		cmp := compareFunc(op)
		out.run = func(fr *frame) lang.Value {
			a, b := xr(fr), yr(fr)
			if a.Kind != lang.Number || b.Kind != lang.Number || a.Dim != b.Dim {
				return fr.fail(pos, "cannot compare a %s with a %s", a.TypeName(), b.TypeName())
			}
			return lang.BoolValue(cmp(a.Num, b.Num))
		}
	default:
		return x, lang.Errorf(pos, "unknown operator %s", op)
	}
	return c.fold(out, x, y)
}

func compareFunc(op lang.Op) func(a, b float64) bool {
	switch op {
	case lang.Lt:
		return func(a, b float64) bool { return a < b }
	case lang.Le:
		return func(a, b float64) bool { return a <= b }
	case lang.Gt:
		return func(a, b float64) bool { return a > b }
	}
	return func(a, b float64) bool { return a >= b }
}

func verb(op lang.Op) string {
	if op == lang.Add {
		return "add"
	}
	return "subtract"
}

func (c *compiler) cond(e *lang.Cond, sc *scope) (cexpr, error) {
	k, err := c.compile(e.If, sc)
	if err != nil {
		return k, err
	}
	if k.known && k.kind != lang.Bool {
		return k, lang.Errorf(e.If.ExprPos(), "the condition of if must be a bool, got a %s", k.TypeName())
	}
	// The branch a constant condition never takes is checked but not
	// folded: if p > 0 then 1 / p else 0 is no error when p is 0.
	deadThen, deadElse := k.konst && !k.val.Truth(), k.konst && k.val.Truth()
	a, err := c.compileDead(e.Then, sc, deadThen)
	if err != nil {
		return a, err
	}
	b, err := c.compileDead(e.Else, sc, deadElse)
	if err != nil {
		return b, err
	}
	if a.known && b.known && (a.kind != b.kind || a.dim != b.dim) {
		return b, lang.Errorf(e.Else.ExprPos(), "the branches of if differ: then gives a %s, else a %s", a.TypeName(), b.TypeName())
	}
	if k.konst {
		if k.val.Truth() {
			return a, nil
		}
		return b, nil
	}
	kr, ar, br, pos := k.run, a.run, b.run, e.If.ExprPos()
	return cexpr{known: a.known && b.known, kind: a.kind, dim: a.dim, run: func(fr *frame) lang.Value {
		v := kr(fr)
		if v.Kind != lang.Bool {
			return fr.fail(pos, "the condition of if must be a bool, got a %s", v.TypeName())
		}
		if v.Truth() {
			return ar(fr)
		}
		return br(fr)
	}}, nil
}

// compileDead compiles e, as never run when dead.
func (c *compiler) compileDead(e lang.Expr, sc *scope, dead bool) (cexpr, error) {
	if dead {
		c.dead++
		defer func() { c.dead-- }()
	}
	return c.compile(e, sc)
}

func (c *compiler) sum(e *lang.Sum, sc *scope) (cexpr, error) {
	from, err := c.compileCount(e.From, sc, "the start of sum")
	if err != nil {
		return from, err
	}
	to, err := c.compileCount(e.To, sc, "the end of sum")
	if err != nil {
		return to, err
	}
	var n int
	inner := &scope{obj: sc.obj, parent: sc, nslots: sc.nslots}
	if sc.nslots == nil {
		inner.nslots = &n
	}
	slot := inner.newSlot()
	inner.locals = map[string]local{e.Var: {slot: slot, known: true, kind: lang.Number}}
	body, err := c.compile(e.Body, inner)
	if err != nil {
		return body, err
	}
	if body.known && body.kind != lang.Number {
		return body, lang.Errorf(e.Body.ExprPos(), "sum needs a number to add up, got a %s", body.TypeName())
	}
	fr, tr, br, pos := from.run, to.run, body.run, e.Pos
	nslots := inner.nslots
	run := func(fr0 *frame) lang.Value {
		a, b := fr(fr0).Num, tr(fr0).Num
		if b-a+1 > MaxSumLength {
			return fr0.fail(pos, "sum over %g values; the limit is %d", b-a+1, MaxSumLength)
		}
		grow(fr0, *nslots)
		total := lang.Value{Dim: body.dim}
		first := true
		if fr0.steps += int(max(b-a+1, 0)); fr0.steps > MaxSteps {
			return fr0.fail(pos, "evaluation takes more than %d steps", MaxSteps)
		}
		for i := a; i <= b; i++ {
			fr0.stack[fr0.base+slot] = lang.Num(i)
			v := br(fr0)
			if v.Kind != lang.Number {
				return fr0.fail(pos, "sum needs a number to add up, got a %s", v.TypeName())
			}
			if first {
				total.Dim, first = v.Dim, false
			} else if v.Dim != total.Dim {
				return fr0.fail(pos, "sum adds a %s to a %s", v.TypeName(), total.TypeName())
			}
			total.Num += v.Num
		}
		// Once a partial sum overflows it stays infinite (or NaN, when
		// the other infinity is added), so one check at the end suffices.
		if !finite(total.Num) {
			return fr0.fail(pos, "overflow: the sum is beyond the largest number (about 1.8e308)")
		}
		return total
	}
	out := cexpr{run: run, known: body.known, kind: lang.Number, dim: body.dim}
	if from.konst && to.konst && body.konst || from.konst && to.konst && sc.nslots == nil {
		return c.fold(out, from, to)
	}
	return out, nil
}

// compileCount compiles an expression that must be a whole plain number.
func (c *compiler) compileCount(e lang.Expr, sc *scope, what string) (cexpr, error) {
	x, err := c.compile(e, sc)
	if err != nil {
		return x, err
	}
	if x.known && (x.kind != lang.Number || x.dim != lang.Dimensionless) {
		return x, lang.Errorf(e.ExprPos(), "%s must be a plain number, got a %s", what, x.TypeName())
	}
	if x.konst && x.val.Num != math.Trunc(x.val.Num) {
		return x, lang.Errorf(e.ExprPos(), "%s must be a whole number, got %s", what, lang.FormatNumber(x.val.Num))
	}
	return x, nil
}

// grow makes sure the frame has n slots above its base.
func grow(fr *frame, n int) {
	if need := fr.base + n; need > len(fr.stack) {
		s := make([]lang.Value, need*2)
		copy(s, fr.stack)
		fr.stack = s
	}
}

// labelOf turns a reference argument into the label it names: a number
// prints as itself, a string or bare name as its text.
func labelOf(v lang.Value) string {
	if v.Kind == lang.String {
		return v.Text()
	}
	if v.Num == math.Trunc(v.Num) && math.Abs(v.Num) < 1e15 {
		return strconv.FormatInt(int64(v.Num), 10)
	}
	return lang.FormatNumber(v.Num)
}

var _ = fmt.Sprintf
