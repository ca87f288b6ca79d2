package eval

import (
	"errors"
	"math"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
)

// target is what a reference names: an object (processor(1)), a field
// (processor(1).createjob), or a kind of children still waiting for its
// label (the processor in processor(1)).
type target struct {
	obj  *object
	fld  *field
	kind string // with obj: children of this kind
	end  string // with obj: a Parasol I link's processornumber/processortype list
}

// depError marks an error already reported where it happened (a reference
// cycle, a broken field); fields that depend on it fail without repeating it.
type depError struct{ error }

func isDep(err error) bool {
	var d depError
	return errors.As(err, &d)
}

// target finds what a reference names, as the resolver decided; through
// a computed label (processor(p).clock) it compiles the label and looks
// the block up now.
func (c *compiler) target(e lang.Expr, sc *scope) (target, error) {
	b := c.binding(e)
	if b == nil {
		return target{}, unresolved(e)
	}
	switch b.kind {
	case bField:
		return target{fld: b.fld}, nil
	case bBlock:
		return target{obj: b.obj}, nil
	case bKind:
		return target{obj: b.obj, kind: b.name}, nil
	case bEnds:
		return target{obj: b.obj, end: b.name}, nil
	case bBad:
		return target{}, depError{b.err}
	case bDyn:
		return c.dynTarget(e, sc)
	}
	return target{}, lang.Errorf(e.ExprPos(), "%s is not a reference", format.Expr(e))
}

// unresolved is the error for a node the resolver did not see, which would
// be a fault of the resolver, not of the input.
func unresolved(e lang.Expr) error {
	return lang.Errorf(e.ExprPos(), "internal error: %s was not resolved; please report this", lang.Excerpt(format.Expr(e)))
}

// dynTarget follows a reference through a computed label.
func (c *compiler) dynTarget(e lang.Expr, sc *scope) (target, error) {
	switch e := e.(type) {
	case *lang.Select:
		t, err := c.target(e.X, sc)
		if err != nil {
			return t, err
		}
		if t.obj == nil || t.kind != "" || t.end != "" {
			return t, lang.Errorf(e.Pos, "%s has no fields: it is %s", format.Expr(e.X), t.describe())
		}
		if f := t.obj.field(e.Name); f != nil {
			return target{fld: f}, nil
		}
		if f, err := c.nicField(t.obj, e); f != nil || err != nil {
			return target{fld: f}, err
		}
		if ch := t.obj.child(e.Name, ""); ch != nil {
			return target{obj: ch}, nil
		}
		if len(t.obj.childrenOf(e.Name)) > 0 || knownKind(e.Name) && parentKind(e.Name) == t.obj.kind {
			return target{obj: t.obj, kind: e.Name}, nil
		}
		if t.obj.kind == "link" && (e.Name == "processornumber" || e.Name == "processortype") && len(t.obj.ends) > 0 {
			return target{obj: t.obj, end: e.Name}, nil
		}
		if _, known := fieldSpecOf(t.obj.kind, e.Name); known && !blocks[t.obj.kind].own {
			return t, lang.Errorf(e.Pos, "%s does not set %s", t.obj.path(), lang.Excerpt(e.Name))
		}
		return t, lang.Errorf(e.Pos, "%s has no field %s%s", t.obj.path(), lang.Excerpt(e.Name), lang.DidYouMean(e.Name, t.obj.names()))
	case *lang.Call:
		t, err := c.target(e.Fn, sc)
		if err != nil {
			return t, err
		}
		if t.kind == "" && t.end == "" {
			return t, lang.Errorf(e.Pos, "%s is not a block reference", format.Expr(e))
		}
		label := ""
		if b := c.binding(e.Args[0]); b != nil && b.kind == bWord {
			label = b.name
		} else if lit, ok := e.Args[0].(*lang.NumberLit); ok {
			label = labelOf(lit.Value)
		} else if lit, ok := e.Args[0].(*lang.StringLit); ok {
			label = lit.Value
		} else {
			arg, err := c.compile(e.Args[0], sc)
			if err != nil {
				return t, err
			}
			if !arg.konst {
				return t, lang.Errorf(e.Args[0].ExprPos(), "the label in %s(…) must be a constant", t.kind+t.end)
			}
			label = labelOf(arg.val)
		}
		if t.end != "" {
			f, d := endField(t.obj, t.end, label, e)
			if d != nil {
				return t, d
			}
			return target{fld: f}, nil
		}
		if ch := t.obj.child(t.kind, label); ch != nil {
			return target{obj: ch}, nil
		}
		return t, noChild(t.obj, t.kind, label, e)
	}
	return target{}, unresolved(e)
}

// nicField is, for processor(pe).NAME with NAME a NIC field pe does not
// set, the field of the nic block pe names, evaluating nic first (it may
// be a param); nil if none states it.
func (c *compiler) nicField(o *object, e *lang.Select) (*field, error) {
	ref := o.field("nic")
	if o.kind != "processor" || !isNICField(e.Name) || ref == nil || ref.decl.IsFunc() {
		return nil, nil
	}
	if _, err := c.m.value(ref, e.Pos); err != nil {
		if !isDep(err) {
			err = depError{err}
		}
		return nil, err
	}
	if nic := o.nicBlock(); nic != nil {
		return nic.field(e.Name), nil
	}
	return nil, nil
}

func joinMax(ss []string, n int) string {
	if len(ss) > n {
		return strings.Join(ss[:n], ", ") + ", …"
	}
	return strings.Join(ss, ", ")
}

func (t target) describe() string {
	switch {
	case t.fld != nil:
		return "a field"
	case t.kind != "":
		return "a kind of block; give a label: " + t.kind + "(…)"
	case t.end != "":
		return "a list; index it: " + t.end + "(0)"
	}
	return "a block"
}

// ref compiles a reference used as a value.
func (c *compiler) ref(e lang.Expr, sc *scope) (cexpr, error) {
	switch b := c.binding(e); {
	case b == nil:
		return cexpr{}, unresolved(e)
	case b.kind == bIndex:
		return c.index(e.(*lang.Ident), indexes[b.name])
	case b.kind == bCompComm:
		sel := e.(*lang.Select)
		pt, err := c.target(sel.X, sc)
		if err != nil {
			return cexpr{}, err
		}
		if pt.obj == nil || pt.kind != "" || pt.obj.kind != "processor" {
			return cexpr{}, lang.Errorf(sel.Pos, "compcomm is an index of a processor: processor(P).compcomm")
		}
		return c.compComm(sel, pt.obj)
	case b.kind == bWord:
		return constant(lang.StringValue(b.name)), nil
	case b.kind == bLocal || b.kind == bBuiltin || b.kind == bHops:
		return cexpr{}, lang.Errorf(e.ExprPos(), "%s is not a reference", format.Expr(e))
	}
	t, err := c.target(e, sc)
	if err != nil {
		return cexpr{}, err
	}
	if t.fld == nil {
		return cexpr{}, lang.Errorf(e.ExprPos(), "%s is %s, not a value", format.Expr(e), t.describe())
	}
	if t.fld.decl.IsFunc() {
		return cexpr{}, lang.Errorf(e.ExprPos(), "%s is a function: call it, e.g. %s(…)", format.Expr(e), format.Expr(e))
	}
	v, err := c.m.value(t.fld, e.ExprPos())
	if err != nil {
		if !isDep(err) {
			err = depError{err}
		}
		return cexpr{}, err
	}
	if err := readDefault(t.fld, v, e); err != nil {
		return cexpr{}, err
	}
	return constant(v), nil
}

// call compiles f(args): a user function, a built-in, or a block reference
// used where a value is needed (an error).
func (c *compiler) call(e *lang.Call, sc *scope) (cexpr, error) {
	fb := c.binding(e.Fn)
	if fb == nil {
		return cexpr{}, unresolved(e.Fn)
	}
	switch fb.kind {
	case bHops:
		return c.hopsCall(e, sc)
	case bBuiltin:
		if fb.name == "implied" {
			return c.impliedCall(e, sc)
		}
		return c.builtin(e, fb.name, builtins[fb.name], sc)
	case bBad:
		return cexpr{}, depError{fb.err}
	case bLocal, bIndex, bWord:
		return cexpr{}, lang.Errorf(e.Pos, "%s is not a function", format.Expr(e.Fn))
	}
	t, err := c.target(e.Fn, sc)
	if err != nil {
		return cexpr{}, err
	}
	if t.fld == nil || !t.fld.decl.IsFunc() {
		if t.kind != "" || t.end != "" {
			t2, err := c.target(e, sc)
			if err != nil {
				return cexpr{}, err
			}
			if t2.fld != nil {
				return c.ref(e, sc)
			}
			return cexpr{}, lang.Errorf(e.Pos, "%s is a block, not a value; pick a field, e.g. %s.%s", format.Expr(e), format.Expr(e), firstName(t2.obj))
		}
		return cexpr{}, lang.Errorf(e.Pos, "%s is not a function", format.Expr(e.Fn))
	}
	fn, err := c.m.function(t.fld)
	if err != nil {
		if !isDep(err) {
			err = depError{err}
		}
		return cexpr{}, err
	}
	if len(e.Args) != len(fn.params) {
		return cexpr{}, lang.Errorf(e.Pos, "%s takes %d argument%s (%s), got %d", format.Expr(e.Fn), len(fn.params), plural(len(fn.params)), paramList(fn.params), len(e.Args))
	}
	args := make([]code, len(e.Args))
	argPos := make([]lang.Pos, len(e.Args))
	for i, a := range e.Args {
		x, err := c.compile(a, sc)
		if err != nil {
			return cexpr{}, err
		}
		if fn.units[i] && x.known && x.kind == lang.Number && x.dim != lang.Dimensionless && x.dim != fn.dims[i] {
			return cexpr{}, lang.Errorf(a.ExprPos(), "argument %s of %s must be a %s, got a %s", fn.params[i].Name, format.Expr(e.Fn), fn.dims[i].Name(), x.TypeName())
		}
		args[i], argPos[i] = x.run, a.ExprPos()
	}
	return cexpr{run: callCode(fn, args, argPos, e.Pos, sc.nslots)}, nil
}

func firstName(o *object) string {
	if o != nil && len(o.fields) > 0 {
		return o.fields[0].name
	}
	return "name"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func paramList(ps []*lang.Param) string {
	out := ""
	for i, p := range ps {
		if i > 0 {
			out += ", "
		}
		out += p.Name
	}
	return out
}

// callCode runs a user function: arguments are evaluated into a small array
// first (a nested call reuses the stack above the caller), then copied into
// the callee's slots above the caller's.
func callCode(fn *function, args []code, argPos []lang.Pos, pos lang.Pos, callerSlots *int) code {
	return func(fr *frame) lang.Value {
		if fn.body == nil {
			return fr.fail(pos, "%s is used while it is being defined (a reference cycle)", fn.f.path())
		}
		if fr.depth >= MaxCallDepth {
			return fr.fail(pos, "calls nested deeper than %d (runaway recursion in %s?)", MaxCallDepth, fn.f.path())
		}
		if fr.steps++; fr.steps > MaxSteps {
			return fr.fail(pos, "evaluation takes more than %d steps (exponential recursion in %s?)", MaxSteps, fn.f.path())
		}
		if fr.err != nil {
			return lang.Value{}
		}
		var small [8]lang.Value
		vals := small[:0]
		if len(args) > len(small) {
			vals = make([]lang.Value, 0, len(args))
		}
		for i, a := range args {
			v := a(fr)
			if fn.units[i] && v.Kind == lang.Number {
				if v.Dim == lang.Dimensionless {
					if v.Num *= fn.scale[i]; !finite(v.Num) {
						return fr.fail(argPos[i], "overflow: argument %s of %s is beyond the largest %s (about 1.8e308 %s)", fn.params[i].Name, fn.f.path(), fn.dims[i].Name(), fn.dims[i].Unit())
					}
					v.Dim = fn.dims[i]
				} else if v.Dim != fn.dims[i] {
					return fr.fail(argPos[i], "argument %s of %s must be a %s, got a %s", fn.params[i].Name, fn.f.path(), fn.dims[i].Name(), v.TypeName())
				}
			}
			vals = append(vals, v)
		}
		if fr.err != nil {
			return lang.Value{}
		}
		caller := 0
		if callerSlots != nil {
			caller = *callerSlots
		}
		saved := fr.base
		fr.base += caller
		grow(fr, fn.nslots)
		copy(fr.stack[fr.base:], vals)
		fr.depth++
		v := fn.body(fr)
		fr.depth--
		fr.base = saved
		if fn.legacyNs && v.Kind == lang.Number && v.Dim == lang.Dimensionless {
			v = lang.Quantity(v.Num*1e-9, lang.TimeDim)
		}
		return v
	}
}

// builtin is a built-in function: its arity (-1: one or more) and how it
// treats dimensions and its domain.
type builtinFn struct {
	arity int
	// apply computes the value, or returns the whole error message: a
	// wrong dimension, or an argument outside the function's domain with
	// the call as written ("domain error: log2(0) needs a number > 0").
	apply func(name string, args []lang.Value) (lang.Value, string)
}

var builtins = map[string]builtinFn{
	"min":   {-1, extremum(func(a, b float64) bool { return a < b })},
	"max":   {-1, extremum(func(a, b float64) bool { return a > b })},
	"ceil":  {1, keepDim(math.Ceil)},
	"floor": {1, keepDim(math.Floor)},
	"round": {1, keepDim(math.Round)},
	"abs":   {1, keepDim(math.Abs)},
	"log2":  {1, plain(math.Log2, positive)},
	"log":   {1, plain(math.Log, positive)},
	"exp":   {1, plain(math.Exp, nil)},
	"sqrt": {1, func(name string, a []lang.Value) (lang.Value, string) {
		d := a[0].Dim
		if d.Time%2 != 0 || d.Size%2 != 0 {
			return lang.Value{}, "sqrt of a " + d.Name() + " has no unit"
		}
		if a[0].Num < 0 {
			return lang.Value{}, "domain error: " + callText(name, a) + " needs a number ≥ 0"
		}
		return lang.Quantity(math.Sqrt(a[0].Num), lang.Dim{Time: d.Time / 2, Size: d.Size / 2}), ""
	}},
	"mod": {2, func(name string, a []lang.Value) (lang.Value, string) {
		if a[0].Dim != a[1].Dim {
			return lang.Value{}, "mod needs two values of the same unit"
		}
		if a[1].Num == 0 {
			return lang.Value{}, "division by zero: " + callText(name, a)
		}
		return lang.Quantity(math.Mod(a[0].Num, a[1].Num), a[0].Dim), ""
	}},
}

// positive is the domain of the logarithms.
var positive = &domain{ok: func(x float64) bool { return x > 0 }, want: "a number > 0"}

// domain is the set of arguments a built-in of one argument is defined for.
type domain struct {
	ok   func(float64) bool
	want string
}

// callText prints a built-in call with its argument values, for messages.
func callText(name string, args []lang.Value) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.String()
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

func extremum(better func(a, b float64) bool) func(string, []lang.Value) (lang.Value, string) {
	return func(_ string, a []lang.Value) (lang.Value, string) {
		best := a[0]
		for _, v := range a[1:] {
			if v.Dim != best.Dim {
				return lang.Value{}, "min and max need values of one unit, got a " + best.TypeName() + " and a " + v.TypeName()
			}
			if better(v.Num, best.Num) {
				best = v
			}
		}
		return best, ""
	}
}

func keepDim(f func(float64) float64) func(string, []lang.Value) (lang.Value, string) {
	return func(_ string, a []lang.Value) (lang.Value, string) {
		return lang.Quantity(f(a[0].Num), a[0].Dim), ""
	}
}

func plain(f func(float64) float64, dom *domain) func(string, []lang.Value) (lang.Value, string) {
	return func(name string, a []lang.Value) (lang.Value, string) {
		if a[0].Dim != lang.Dimensionless {
			return lang.Value{}, name + ": needs a plain number, got a " + a[0].TypeName()
		}
		if dom != nil && !dom.ok(a[0].Num) {
			return lang.Value{}, "domain error: " + callText(name, a) + " needs " + dom.want
		}
		return lang.Num(f(a[0].Num)), ""
	}
}

func (c *compiler) builtin(e *lang.Call, name string, b builtinFn, sc *scope) (cexpr, error) {
	if b.arity >= 0 && len(e.Args) != b.arity || b.arity < 0 && len(e.Args) == 0 {
		want := "one or more arguments"
		if b.arity >= 0 {
			want = map[int]string{1: "one argument", 2: "two arguments"}[b.arity]
		}
		return cexpr{}, lang.Errorf(e.Pos, "%s takes %s, got %d", name, want, len(e.Args))
	}
	args := make([]cexpr, len(e.Args))
	runs := make([]code, len(e.Args))
	for i, a := range e.Args {
		x, err := c.compile(a, sc)
		if err != nil {
			return x, err
		}
		if x.known && x.kind != lang.Number {
			return x, lang.Errorf(a.ExprPos(), "%s needs numbers, got a %s", name, x.TypeName())
		}
		args[i], runs[i] = x, x.run
	}
	pos := e.Pos
	run := func(fr *frame) lang.Value {
		// The arguments go on the frame's scratch stack (fr.args), as a
		// call inside an argument's does above them: an array of the
		// closure's own escaped to the heap through apply, 128 bytes a
		// call (83 MB of garbage for a 1,024-rank program's million
		// operations).
		base := len(fr.args)
		defer func() { fr.args = fr.args[:base] }()
		for _, r := range runs {
			v := r(fr)
			if v.Kind != lang.Number {
				return fr.fail(pos, "%s needs numbers, got a %s", name, v.TypeName())
			}
			fr.args = append(fr.args, v)
		}
		vals := fr.args[base:]
		v, msg := b.apply(name, vals)
		if msg != "" {
			return fr.fail(pos, "%s", msg)
		}
		if !finite(v.Num) {
			return fr.fail(pos, "overflow: %s is beyond the largest number (about 1.8e308)", callText(name, vals))
		}
		return v
	}
	out := cexpr{run: run, kind: lang.Number}
	// Static dimension of the result, when the arguments' are known.
	allKnown := true
	for _, a := range args {
		allKnown = allKnown && a.known
	}
	if allKnown {
		probe := make([]lang.Value, len(args))
		for i, a := range args {
			probe[i] = lang.Quantity(1, a.dim)
		}
		v, msg := b.apply(name, probe)
		if msg != "" {
			return out, lang.Errorf(pos, "%s", msg)
		}
		out.known, out.dim = true, v.Dim
	}
	return c.fold(out, args...)
}
