package eval

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// Func is a compiled model function, such as a programming-model primitive,
// ready to be called many times. It is safe for concurrent use.
type Func struct {
	m    *Machine
	fn   *function
	path string
	// spec is the body compiled for the argument types of the latest call:
	// with every parameter's dimension known, the compiler checks
	// dimensions once instead of on every operation.
	spec atomic.Pointer[specialized]
	// frame is a spare evaluation frame: a call takes it (or makes one when
	// another goroutine holds it) and puts it back.
	frame atomic.Pointer[frame]
}

type specialized struct {
	kinds  []lang.Kind
	dims   []lang.Dim
	body   code
	nslots int
}

// specialize compiles the function body for these argument types. Errors
// fall back to the generic body, which reports them where they happen.
func (f *Func) specialize(args []lang.Value) *specialized {
	fn := f.fn
	s := &specialized{kinds: make([]lang.Kind, len(args)), dims: make([]lang.Dim, len(args)), nslots: len(args)}
	sc := &scope{obj: fn.f.obj, locals: map[string]local{}, nslots: &s.nslots}
	for i, a := range args {
		s.kinds[i], s.dims[i] = a.Kind, a.Dim
		sc.locals[fn.params[i].Name] = local{slot: i, known: true, kind: a.Kind, dim: a.Dim}
	}
	body, err := (&compiler{m: f.m}).compile(fn.f.decl.Value, sc)
	if err != nil {
		s.body, s.nslots = fn.body, fn.nslots
	} else {
		s.body = body.run
	}
	f.spec.Store(s)
	return s
}

// Func looks up a function by reference path: "PVM.send",
// "modelsection(MPI).barrier", or a machine-level function "cost".
func (m *Machine) Func(path string) (*Func, error) {
	e, err := parser.ParseExpr("<func>", path)
	if err != nil {
		return nil, err
	}
	res, err := m.resolveQuery(e, m.root)
	if err != nil {
		return nil, err
	}
	c := &compiler{m: m, res: res}
	// A path the resolver took for no reference at all is an expression
	// given where a name was wanted, often a call with its arguments.
	if c.binding(e) == nil {
		hint := ""
		if call, ok := e.(*lang.Call); ok {
			hint = ": name it without arguments, " + format.Expr(call.Fn)
		}
		return nil, lang.Errorf(e.ExprPos(), "%s is not the name of a function%s", lang.Excerpt(format.Expr(e)), hint)
	}
	t, err := c.target(e, &scope{obj: m.root})
	if err != nil {
		return nil, unwrapDep(err)
	}
	if t.fld == nil || !t.fld.decl.IsFunc() {
		return nil, fmt.Errorf("%s is not a function", lang.Excerpt(path))
	}
	fn, err := m.function(t.fld)
	if err != nil {
		return nil, unwrapDep(err)
	}
	return &Func{m: m, fn: fn, path: path}, nil
}

// Path is the reference path the function was looked up by ("MPI.send"),
// to look it up again in a machine derived from this one.
func (f *Func) Path() string { return f.path }

// Params lists the function's parameter names.
func (f *Func) Params() []string {
	out := make([]string, len(f.fn.params))
	for i, p := range f.fn.params {
		out[i] = p.Name
	}
	return out
}

// Mentions reports whether the function's body may read parameter name:
// false only when no name in the body spells it, so that a caller may
// cache the results of calls that differ in that argument alone (the
// analysis keys a latency by size only when it reads neither src nor dst).
func (f *Func) Mentions(name string) bool {
	body := f.fn.f.decl.Value
	if body == nil {
		return true
	}
	found := false
	lang.Inspect(body, func(e lang.Expr) bool {
		if id, ok := e.(*lang.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// Arg is v as parameter i takes it: a plain number for a parameter declared
// with a unit (n: B) is a quantity in that unit, so that callers showing
// the arguments show what the function was given.
func (f *Func) Arg(i int, v lang.Value) lang.Value {
	fn := f.fn
	if i >= 0 && i < len(fn.params) && fn.units[i] && v.Kind == lang.Number && v.Dim == lang.Dimensionless {
		v.Num *= fn.scale[i]
		v.Dim = fn.dims[i]
	}
	return v
}

// Call runs the function. A plain-number argument for a parameter declared
// with a unit (send(n: B, …)) is taken in that unit.
func (f *Func) Call(args ...lang.Value) (lang.Value, error) {
	fn := f.fn
	if len(args) != len(fn.params) {
		return lang.Value{}, fmt.Errorf("%s takes %d arguments (%s), got %d", f.path, len(fn.params), paramList(fn.params), len(args))
	}
	fr := f.frame.Swap(nil)
	if fr == nil {
		fr = &frame{stack: make([]lang.Value, 64)}
	}
	grow(fr, len(args))
	s := f.spec.Load()
	same := s != nil
	for i, v := range args {
		v = f.Arg(i, v)
		if fn.units[i] && v.Kind == lang.Number && v.Dim != fn.dims[i] {
			return lang.Value{}, fmt.Errorf("argument %s of %s must be a %s, got a %s", fn.params[i].Name, f.path, fn.dims[i].Name(), v.TypeName())
		}
		// An argument from Go may be ±Inf or NaN, which no expression
		// can produce; refuse it so no answer is silently one either.
		if v.Kind == lang.Number && !finite(v.Num) {
			if finite(args[i].Num) {
				return lang.Value{}, fmt.Errorf("overflow: argument %s of %s, %s in %s, is beyond the largest %s (about 1.8e308 %s)", fn.params[i].Name, f.path, lang.FormatNumber(args[i].Num), fn.params[i].Unit, fn.dims[i].Name(), fn.dims[i].Unit())
			}
			return lang.Value{}, fmt.Errorf("argument %s of %s is %s, not a finite number", fn.params[i].Name, f.path, lang.FormatNumber(args[i].Num))
		}
		fr.stack[i] = v
		same = same && v.Kind == s.kinds[i] && v.Dim == s.dims[i]
	}
	if !same {
		s = f.specialize(fr.stack[:len(args)])
	}
	grow(fr, s.nslots)
	fr.depth = 1
	v := s.body(fr)
	if fn.legacyNs && v.Kind == lang.Number && v.Dim == lang.Dimensionless {
		v = lang.Quantity(v.Num*1e-9, lang.TimeDim)
	}
	var err error
	if fr.err != nil {
		err = fr.err
		fr.err = nil
	}
	fr.base, fr.depth, fr.steps = 0, 0, 0
	f.frame.Store(fr)
	return v, err
}

// Call looks up a function and calls it once. Arguments may be lang.Value,
// any Go number (a plain number), or a string with a unit ("1KB", "2us").
//
//	cost, err := m.Call("PVM.send", 1024, 0, 5)
func (m *Machine) Call(path string, args ...any) (lang.Value, error) {
	f, err := m.Func(path)
	if err != nil {
		return lang.Value{}, err
	}
	vals := make([]lang.Value, len(args))
	for i, a := range args {
		v, err := ToValue(a)
		if err != nil {
			return lang.Value{}, fmt.Errorf("argument %d of %s: %v", i+1, path, err)
		}
		vals[i] = v
	}
	return f.Call(vals...)
}

// ToValue converts a Go value to a Parasol value: numbers are plain,
// strings are parsed as quantities ("1.5us", "4KB") or else kept as
// strings, bools are bools.
func ToValue(a any) (lang.Value, error) {
	switch a := a.(type) {
	case lang.Value:
		return a, nil
	case int:
		return lang.Num(float64(a)), nil
	case int64:
		return lang.Num(float64(a)), nil
	case int32:
		return lang.Num(float64(a)), nil
	case uint:
		return lang.Num(float64(a)), nil
	case uint64:
		return lang.Num(float64(a)), nil
	case float64:
		return lang.Num(a), nil
	case float32:
		return lang.Num(float64(a)), nil
	case bool:
		return lang.BoolValue(a), nil
	case string:
		if v, err := lang.ParseQuantity(a); err == nil {
			return v, nil
		}
		return lang.StringValue(strings.TrimSpace(a)), nil
	}
	return lang.Value{}, fmt.Errorf("cannot use %T as a Parasol value", a)
}
