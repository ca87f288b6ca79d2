package eval

import (
	"errors"
	"math"
	"sort"

	"github.com/parasol-lang/parasol/lang"
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

// target resolves a reference expression statically.
func (c *compiler) target(e lang.Expr, sc *scope) (target, error) {
	switch e := e.(type) {
	case *lang.Ident:
		for o := sc.obj; o != nil; o = o.parent {
			if f := o.field(e.Name); f != nil {
				return target{fld: f}, nil
			}
		}
		root := c.m.root
		for _, ch := range root.children {
			if ch.kind == "modelsection" && ch.label == e.Name {
				return target{obj: ch}, nil
			}
		}
		if ch := root.child(e.Name, ""); ch != nil {
			return target{obj: ch}, nil
		}
		if knownKind(e.Name) && parentKind(e.Name) == "machine" {
			return target{obj: root, kind: e.Name}, nil
		}
		for _, ch := range root.children {
			if ch.kind == "modelsection" && ch.fields[e.Name] != nil {
				return target{}, lang.Errorf(e.Pos, "unknown name %s (did you mean %s.%s?)", e.Name, ch.label, e.Name)
			}
		}
		return target{}, lang.Errorf(e.Pos, "unknown name %s%s", e.Name, lang.DidYouMean(e.Name, c.visibleNames(sc)))
	case *lang.Select:
		t, err := c.target(e.X, sc)
		if err != nil {
			return t, err
		}
		if t.obj == nil || t.kind != "" || t.end != "" {
			return t, lang.Errorf(e.Pos, "%s has no fields: it is %s", lang.FormatExpr(e.X), t.describe())
		}
		if f := t.obj.field(e.Name); f != nil {
			return target{fld: f}, nil
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
		return t, lang.Errorf(e.Pos, "%s has no field %s%s", t.obj.path(), e.Name, lang.DidYouMean(e.Name, t.obj.names()))
	case *lang.Call:
		t, err := c.target(e.Fn, sc)
		if err != nil {
			return t, err
		}
		if t.kind == "" && t.end == "" {
			return t, lang.Errorf(e.Pos, "%s is not a block reference", lang.FormatExpr(e))
		}
		if len(e.Args) != 1 {
			return t, lang.Errorf(e.Pos, "%s(…) takes one argument, the label", t.kind+t.end)
		}
		arg, err := c.compile(e.Args[0], sc)
		label := ""
		if id, ok := e.Args[0].(*lang.Ident); ok && (err != nil || arg.kind == lang.String) {
			label, err = id.Name, nil // processor(xcore): a bare label
		} else if err != nil {
			return t, err
		} else if !arg.konst {
			return t, lang.Errorf(e.Args[0].ExprPos(), "the label in %s(…) must be a constant", t.kind+t.end)
		} else {
			label = labelOf(arg.val)
		}
		if t.end != "" {
			return c.endTarget(t, label, e)
		}
		if ch := t.obj.child(t.kind, label); ch != nil {
			return target{obj: ch}, nil
		}
		var labels []string
		for _, ch := range t.obj.childrenOf(t.kind) {
			labels = append(labels, quoteLabel(ch.label))
		}
		msg := "there are none"
		if len(labels) > 0 {
			msg = "there are: " + joinMax(labels, 12)
		}
		return t, lang.Errorf(e.Args[0].ExprPos(), "no %s %s in %s%s; %s", t.kind, quoteLabel(label), t.obj.path(), lang.DidYouMean(label, labels), msg)
	}
	return target{}, lang.Errorf(e.ExprPos(), "%s is not a reference", lang.FormatExpr(e))
}

func (c *compiler) endTarget(t target, label string, e *lang.Call) (target, error) {
	i := -1
	for k := range t.obj.ends {
		if labelOf(lang.Num(float64(k))) == label {
			i = k
		}
	}
	if i < 0 {
		return t, lang.Errorf(e.Args[0].ExprPos(), "link %s connects %d processors, numbered 0 to %d", t.obj.label, len(t.obj.ends), len(t.obj.ends)-1)
	}
	ep := t.obj.ends[i]
	f := ep.number
	if t.end == "processortype" {
		f = ep.typ
	}
	if f == nil {
		return t, lang.Errorf(e.Pos, "link %s does not give %s %d", t.obj.label, t.end, i)
	}
	return target{fld: f}, nil
}

func joinMax(ss []string, n int) string {
	if len(ss) > n {
		return joinStrings(ss[:n]) + ", …"
	}
	return joinStrings(ss)
}

func joinStrings(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
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

// visibleNames lists the names a bare identifier could mean, for suggestions.
func (c *compiler) visibleNames(sc *scope) []string {
	var out []string
	for s := sc; s != nil; s = s.parent {
		for n := range s.locals {
			out = append(out, n)
		}
	}
	for o := sc.obj; o != nil; o = o.parent {
		out = append(out, o.order...)
	}
	for _, ch := range c.m.root.children {
		if ch.kind == "modelsection" {
			out = append(out, ch.label)
		}
	}
	out = append(out, blockKinds...)
	for n := range builtins {
		out = append(out, n)
	}
	for n := range indexes {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ref compiles a reference used as a value.
func (c *compiler) ref(e lang.Expr, sc *scope) (cexpr, error) {
	t, err := c.target(e, sc)
	if err != nil {
		if id, ok := e.(*lang.Ident); ok {
			if ix, found := indexes[id.Name]; found {
				return c.index(id, ix)
			}
		}
		return cexpr{}, err
	}
	if t.fld == nil {
		return cexpr{}, lang.Errorf(e.ExprPos(), "%s is %s, not a value", lang.FormatExpr(e), t.describe())
	}
	if t.fld.decl.IsFunc() {
		return cexpr{}, lang.Errorf(e.ExprPos(), "%s is a function: call it, e.g. %s(…)", lang.FormatExpr(e), lang.FormatExpr(e))
	}
	v, err := c.m.value(t.fld, e.ExprPos())
	if err != nil {
		if !isDep(err) {
			err = depError{err}
		}
		return cexpr{}, err
	}
	return constant(v), nil
}

// call compiles f(args): a user function, a built-in, or a block reference
// used where a value is needed (an error).
func (c *compiler) call(e *lang.Call, sc *scope) (cexpr, error) {
	t, err := c.target(e.Fn, sc)
	if err != nil {
		if id, ok := e.Fn.(*lang.Ident); ok {
			if _, local := sc.lookup(id.Name); !local {
				if id.Name == "hops" {
					return c.hopsCall(e, sc)
				}
				if b, found := builtins[id.Name]; found {
					return c.builtin(e, id.Name, b, sc)
				}
			}
		}
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
			return cexpr{}, lang.Errorf(e.Pos, "%s is a block, not a value; pick a field, e.g. %s.%s", lang.FormatExpr(e), lang.FormatExpr(e), firstName(t2.obj))
		}
		return cexpr{}, lang.Errorf(e.Pos, "%s is not a function", lang.FormatExpr(e.Fn))
	}
	fn, err := c.m.function(t.fld)
	if err != nil {
		return cexpr{}, depError{err}
	}
	if len(e.Args) != len(fn.params) {
		return cexpr{}, lang.Errorf(e.Pos, "%s takes %d argument%s (%s), got %d", lang.FormatExpr(e.Fn), len(fn.params), plural(len(fn.params)), paramList(fn.params), len(e.Args))
	}
	args := make([]code, len(e.Args))
	argPos := make([]lang.Pos, len(e.Args))
	for i, a := range e.Args {
		x, err := c.compile(a, sc)
		if err != nil {
			return cexpr{}, err
		}
		if fn.units[i] && x.known && x.kind == lang.Number && x.dim != lang.Dimensionless && x.dim != fn.dims[i] {
			return cexpr{}, lang.Errorf(a.ExprPos(), "argument %s of %s must be a %s, got a %s", fn.params[i].Name, lang.FormatExpr(e.Fn), fn.dims[i].Name(), x.TypeName())
		}
		args[i], argPos[i] = x.run, a.ExprPos()
	}
	return cexpr{run: callCode(fn, args, argPos, e.Pos, sc.nslots)}, nil
}

func firstName(o *object) string {
	if o != nil && len(o.order) > 0 {
		return o.order[0]
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
					v.Num *= fn.scale[i]
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
// treats dimensions.
type builtinFn struct {
	arity int
	apply func(args []lang.Value) (lang.Value, string) // value, or an error message
}

var builtins = map[string]builtinFn{
	"min":   {-1, extremum(func(a, b float64) bool { return a < b })},
	"max":   {-1, extremum(func(a, b float64) bool { return a > b })},
	"ceil":  {1, keepDim(math.Ceil)},
	"floor": {1, keepDim(math.Floor)},
	"round": {1, keepDim(math.Round)},
	"abs":   {1, keepDim(math.Abs)},
	"log2":  {1, plain(math.Log2)},
	"log":   {1, plain(math.Log)},
	"exp":   {1, plain(math.Exp)},
	"sqrt": {1, func(a []lang.Value) (lang.Value, string) {
		d := a[0].Dim
		if d.Time%2 != 0 || d.Size%2 != 0 {
			return lang.Value{}, "sqrt of a " + d.Name() + " has no unit"
		}
		return lang.Quantity(math.Sqrt(a[0].Num), lang.Dim{Time: d.Time / 2, Size: d.Size / 2}), ""
	}},
	"mod": {2, func(a []lang.Value) (lang.Value, string) {
		if a[0].Dim != a[1].Dim {
			return lang.Value{}, "mod needs two values of the same unit"
		}
		return lang.Quantity(math.Mod(a[0].Num, a[1].Num), a[0].Dim), ""
	}},
}

func extremum(better func(a, b float64) bool) func([]lang.Value) (lang.Value, string) {
	return func(a []lang.Value) (lang.Value, string) {
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

func keepDim(f func(float64) float64) func([]lang.Value) (lang.Value, string) {
	return func(a []lang.Value) (lang.Value, string) {
		return lang.Quantity(f(a[0].Num), a[0].Dim), ""
	}
}

func plain(f func(float64) float64) func([]lang.Value) (lang.Value, string) {
	return func(a []lang.Value) (lang.Value, string) {
		if a[0].Dim != lang.Dimensionless {
			return lang.Value{}, "needs a plain number, got a " + a[0].TypeName()
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
		var small [8]lang.Value
		vals := small[:0]
		for _, r := range runs {
			v := r(fr)
			if v.Kind != lang.Number {
				return fr.fail(pos, "%s needs numbers, got a %s", name, v.TypeName())
			}
			vals = append(vals, v)
		}
		v, msg := b.apply(vals)
		if msg != "" {
			return fr.fail(pos, "%s: %s", name, msg)
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
		v, msg := b.apply(probe)
		if msg != "" {
			return out, lang.Errorf(pos, "%s: %s", name, msg)
		}
		out.known, out.dim = true, v.Dim
	}
	return fold(out, args...), nil
}
