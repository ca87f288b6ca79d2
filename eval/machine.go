package eval

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// Machine is a loaded, fully evaluated machine description. Every field was
// evaluated and every function compiled while loading, so a Machine is
// immutable and safe for concurrent queries.
type Machine struct {
	name   string
	loader *loader
	root   *object
	legacy bool
	errs   lang.Diagnostics
	warns  lang.Diagnostics // values legal but suspicious (warnings.go)
	res    *resolution      // what every name means (resolve.go)
	// Machine-level names that found no field (resolver.lookup), and the
	// fields an extension added beside the shared root (extend.go).
	free        *layeredMap[string, bool]
	own         ownFields
	ownAppended atomic.Bool // an extension has appended to own.list in place
	stack       []evalStep  // fields being evaluated, for cycle reports (load time only)
	work        []pending   // fields waiting for the fields they refer to (dependencies.go)

	topos     []*Topology
	topoState int8
	frames    [8]atomic.Pointer[frame]
}

type evalStep struct {
	f    *field
	from lang.Pos // where the reference to f stands
}

// Name is the machine's name.
func (m *Machine) Name() string { return m.name }

// Pos is where the machine is declared (machine "NAME" { … }), for
// messages about the machine as a whole; not valid for a machine that no
// file declares.
func (m *Machine) Pos() lang.Pos {
	if d := m.loader.machines[m.name]; d != nil && d.ast != nil {
		return d.ast.Pos
	}
	return lang.Pos{}
}

// MaxMemory is the memory limit the machine was loaded with (WithMaxMemory),
// for the stages after loading, such as the simulator, to honour.
func (m *Machine) MaxMemory() int64 { return limits.Or(m.loader.opts.maxMemory) }

// Legacy reports whether the machine came from a Parasol I file.
func (m *Machine) Legacy() bool { return m.legacy }

// evaluateAll evaluates every field and compiles every function, so that
// all errors are reported at load time and the machine is immutable after.
func (m *Machine) evaluateAll() {
	var walk func(o *object)
	walk = func(o *object) {
		for _, f := range o.fields {
			var err error
			if f.decl.IsFunc() {
				_, err = m.function(f)
			} else {
				_, err = m.value(f, lang.Pos{})
			}
			if err != nil && !isDep(err) {
				m.errs.Append(err)
			}
		}
		for _, e := range o.ends {
			for _, f := range []*field{e.typ, e.number} {
				if f != nil {
					if _, err := m.value(f, lang.Pos{}); err != nil && !isDep(err) {
						m.errs.Append(err)
					}
				}
			}
		}
		for _, c := range o.children {
			walk(c)
		}
	}
	walk(m.root)
	if len(m.errs) == 0 {
		m.realizeTopologies()
	}
}

// value evaluates a field once, detecting reference cycles. The fields it
// refers to are evaluated first, without recursion (see evaluate).
func (m *Machine) value(f *field, from lang.Pos) (lang.Value, error) {
	switch f.state {
	case evaluated:
		return f.val, f.failure()
	case evaluating:
		return lang.Value{}, m.cycle(f, from)
	}
	if f.overridden() == nil && f.obj.kind != "processor" && !f.decl.IsFunc() {
		if _, ok := literal(f.decl.Value); ok {
			// Most fields of a large file: a number refers to nothing,
			// so it needs no work stack (and, not overridden and not a
			// processor's clock, nothing else is evaluated on its way).
			f.state = evaluating
			v, err := m.evalField(f)
			f.val = v
			f.setFailure(err)
			f.state = evaluated
			return v, err
		}
	}
	m.evaluate(f, from)
	return f.val, f.failure()
}

// cycle reports a reference cycle once, listing each step with its position,
// and fails every field on it quietly. A cycle through a long generated
// chain lists its first and last maxCycleSteps/2 steps and says how many
// lie between, so the report stays readable.
func (m *Machine) cycle(f *field, from lang.Pos) error {
	i := len(m.stack) - 1
	for i >= 0 && m.stack[i].f != f {
		i--
	}
	steps := m.stack[i:]
	shown := func(k int) bool {
		return len(steps) <= maxCycleSteps || k < maxCycleSteps/2 || k >= len(steps)-maxCycleSteps/2
	}
	elided := fmt.Sprintf("… %d more steps …", len(steps)-maxCycleSteps)
	names := make([]string, 0, min(len(steps), maxCycleSteps)+2)
	for k, s := range steps {
		if shown(k) {
			names = append(names, lang.Excerpt(s.f.path()))
		} else if k == maxCycleSteps/2 {
			names = append(names, elided)
		}
	}
	names = append(names, lang.Excerpt(f.path()))
	// Built whole rather than by Errorf, which would cut the list short.
	d := &lang.Diagnostic{Pos: f.decl.Pos, Msg: "reference cycle: " + strings.Join(names, " → ")}
	for k, s := range steps {
		if !shown(k) {
			if k == maxCycleSteps/2 {
				d.Notes = append(d.Notes, lang.Note{Msg: elided})
			}
			continue
		}
		next := f
		at := from
		if k+1 < len(steps) {
			next, at = steps[k+1].f, steps[k+1].from
		}
		d.Notes = append(d.Notes, lang.Note{Pos: at, Msg: fmt.Sprintf("%s refers to %s", s.f.path(), next.path())})
	}
	m.errs = append(m.errs, d)
	return depError{d}
}

// maxCycleSteps is how many steps of a reference cycle a report lists.
const maxCycleSteps = 64

func (m *Machine) evalField(f *field) (lang.Value, error) {
	if f.obj.kind == "processor" && !f.decl.IsFunc() && isClockField(f.name) {
		return m.evalClockField(f) // a value or a draw of the run (program_clock_fields.go)
	}
	spec, _ := fieldSpecOf(f.obj.kind, f.name)
	v, err := m.evalExpr(f.decl.Value, f.obj)
	if err != nil {
		return v, err
	}
	if v, err = m.check(f, spec, v); err != nil {
		return v, err
	}
	return v, m.checkOverride(f, v)
}

func isClockField(name string) bool {
	_, ok := clockFields[name]
	return ok
}

// check converts a field's value to its schema type: implied Parasol I
// units, yes/no bools, an enumerated word's canonical name, and a clear
// error on a wrong dimension.
func (m *Machine) check(f *field, spec fieldSpec, v lang.Value) (lang.Value, error) {
	t := spec.typ
	pos := f.decl.Value.ExprPos()
	switch t {
	case tAny:
		// A Parasol I model primitive's plain number is nanoseconds, as a
		// function primitive's plain result is (function.legacyNs).
		if f.legacy && f.obj.kind == "modelsection" && v.Kind == lang.Number && v.Dim == lang.Dimensionless {
			return lang.Quantity(v.Num*1e-9, lang.TimeDim), nil
		}
		return v, nil
	case tBool:
		switch {
		case v.Kind == lang.Bool:
			return v, nil
		case v.Kind == lang.Number && v.Dim == lang.Dimensionless && (v.Num == 0 || v.Num == 1):
			return lang.BoolValue(v.Num == 1), nil
		case v.Kind == lang.String:
			switch strings.ToLower(v.Text()) {
			case "yes", "true":
				return lang.BoolValue(true), nil
			case "no", "false":
				return lang.BoolValue(false), nil
			}
		}
		return v, errAt(f.decl.Value, "%s expects yes, no, true, false, 1 or 0, got %s", quoteField(f.name), v)
	case tString, tSymbol:
		if t == tSymbol && v.Kind == lang.Number && f.legacy {
			v = lang.StringValue(labelOf(v))
		}
		if v.Kind != lang.String {
			return v, errAt(f.decl.Value, "%s expects a name, got a %s", quoteField(f.name), v.TypeName())
		}
		if spec.enum != nil {
			en, ok := spec.enum.Lookup(v.Text())
			if !ok {
				return v, unknownWord(f.decl.Value, v.Text(), spec.enum)
			}
			return lang.StringValue(en.Name), nil
		}
		if f.name == "nic" && f.obj.kind == "processor" && f.obj.parent != nil && f.obj.parent.child("nic", v.Text()) == nil {
			// a computed name (a word is checked where it is written)
			return v, errAt(f.decl.Value, "no nic %s%s", lang.Excerpt(quoteLabel(v.Text())), lang.DidYouMean(v.Text(), m.labelsOf("nic")))
		}
		return v, nil
	}
	want, _ := t.dim()
	switch {
	case v.Kind == lang.Number && v.Dim == lang.Dimensionless && want != lang.Dimensionless && f.legacy:
		v = lang.Quantity(v.Num*t.legacyScale(), want)
	case v.Kind == lang.Number && t == tPercent && f.legacy && !strings.Contains(format.Expr(f.decl.Value), "%"):
		// A plain Parasol I number is in percent; 30% already is a fraction.
		v = lang.Num(v.Num * t.legacyScale())
	}
	if v.Kind != lang.Number || v.Dim != want {
		got := v.TypeName()
		if v.Kind == lang.Number && v.Dim == lang.Dimensionless {
			got = "plain number; give a unit, e.g. " + example(t)
		}
		return v, lang.Errorf(pos, "%s expects a %s, got a %s", quoteField(f.name), t, got)
	}
	if boundDeferred(f) {
		return v, nil // held to its bound where a link takes it (bounds.go)
	}
	// Counts, times, sizes and rates are never negative: a negative latency
	// or overhead would run the simulator backwards in time.
	switch {
	case t == tCount && (v.Num < 0 || v.Num != math.Trunc(v.Num)):
		return v, lang.Errorf(pos, "%s must be a whole number ≥ 0, got %s", quoteField(f.name), v)
	case t != tNumber && v.Num < 0:
		return v, lang.Errorf(pos, "%s must not be negative, got %s", quoteField(f.name), v)
	}
	return v, fieldBound(f, t, v)
}

func example(t fieldType) string {
	return map[fieldType]string{tTime: "1.2us", tSize: "32B", tRate: "10MB/s", tFreq: "400MHz", tTimePerByte: "100ns/B"}[t]
}

// evalExpr compiles and runs an expression in an object's scope, its
// names resolved in the machine's table.
func (m *Machine) evalExpr(e lang.Expr, obj *object) (lang.Value, error) {
	return m.evalResolved(e, obj, nil)
}

// evalResolved compiles and runs an expression whose names are in res (nil:
// the machine's table).
func (m *Machine) evalResolved(e lang.Expr, obj *object, res *resolution) (lang.Value, error) {
	if v, ok := literal(e); ok {
		return v, nil
	}
	var n int
	ce, err := (&compiler{m: m, res: res}).compile(e, &scope{obj: obj, nslots: &n})
	if err != nil {
		return lang.Value{}, err
	}
	if ce.konst {
		return ce.val, nil
	}
	fr := m.getFrame()
	defer m.putFrame(fr)
	grow(fr, n)
	v := ce.run(fr)
	if fr.err != nil {
		return v, fr.err
	}
	return v, nil
}

// getFrame takes a frame from a small lock-free cache (cheaper than a
// sync.Pool on the hot path of Func.Call), or makes one.
func (m *Machine) getFrame() *frame {
	for i := range m.frames {
		if fr := m.frames[i].Swap(nil); fr != nil {
			return fr
		}
	}
	return &frame{stack: make([]lang.Value, 64)}
}

func (m *Machine) putFrame(fr *frame) {
	fr.base, fr.depth, fr.steps, fr.err = 0, 0, 0, nil
	for i := range m.frames {
		if m.frames[i].CompareAndSwap(nil, fr) {
			return
		}
	}
}

// function compiles a user function once. A recursive call finds the
// function already registered and links to it.
func (m *Machine) function(f *field) (*function, error) {
	if fn := f.compiled(); fn != nil {
		return fn, f.failure()
	}
	params := f.decl.Params
	fn := &function{f: f, params: params, nslots: len(params),
		scale: make([]float64, len(params)), dims: make([]lang.Dim, len(params)), units: make([]bool, len(params)),
		legacyNs: f.legacy && f.obj.kind == "modelsection"}
	f.more().fn = fn
	sc := &scope{obj: f.obj, locals: map[string]local{}, nslots: &fn.nslots}
	for i, p := range params {
		if _, dup := sc.locals[p.Name]; dup {
			f.setFailure(lang.Errorf(p.Pos, "parameter %s appears twice", p.Name))
			return fn, f.failure()
		}
		l := local{slot: i}
		if p.Unit != "" {
			u, _ := lang.LookupUnit(p.Unit)
			fn.scale[i], fn.dims[i], fn.units[i] = u.Num, u.Dim, true
			l.known, l.kind, l.dim = true, lang.Number, u.Dim
		}
		sc.locals[p.Name] = l
	}
	body, err := (&compiler{m: m}).compile(f.decl.Value, sc)
	if err != nil {
		f.setFailure(err)
		return fn, err
	}
	fn.body = body.run
	f.state = evaluated
	return fn, nil
}

// Eval evaluates an expression in the machine's scope: a reference
// (processor(1).createjob), a model primitive (PVM.send(1KB, 0, 5)), a
// derived index (diameter), or any arithmetic over them.
func (m *Machine) Eval(expr string) (lang.Value, error) {
	e, err := parser.ParseExpr("<query>", expr)
	if err != nil {
		return lang.Value{}, err
	}
	return m.EvalExpr(e)
}

// EvalExpr evaluates a parsed expression.
func (m *Machine) EvalExpr(e lang.Expr) (lang.Value, error) {
	res, err := m.resolveQuery(e, m.root)
	if err != nil {
		return lang.Value{}, err
	}
	v, err := m.evalResolved(e, m.root, res)
	return v, unwrapDep(err)
}

func unwrapDep(err error) error {
	for {
		d, ok := err.(depError)
		if !ok {
			return err
		}
		err = d.error
	}
}

// Param returns the value of a machine-level param or field.
func (m *Machine) Param(name string) (lang.Value, error) {
	f := m.root.get(name)
	if f == nil {
		f = m.own.byName.get(name)
	}
	if f == nil {
		var names []string
		for _, f := range m.rootFields() {
			names = append(names, f.name)
		}
		return lang.Value{}, fmt.Errorf("machine %q has no param %s%s", m.name, lang.Excerpt(name), lang.DidYouMean(name, names))
	}
	if f.decl.IsFunc() {
		return lang.Value{}, fmt.Errorf("%s is a function; use Call", name)
	}
	return f.val, f.failure()
}

// Params lists the machine-level params and their values, in declaration
// order.
func (m *Machine) Params() []Field {
	var out []Field
	for _, f := range m.rootFields() {
		if f.isParam {
			out = append(out, Field{Path: f.name, Value: f.val, Pos: f.decl.Pos})
		}
	}
	return out
}

// Field is one evaluated field, for listings.
type Field struct {
	Path   string
	Value  lang.Value
	Pos    lang.Pos
	Func   bool     // a function; Value is unset
	Params []string // a function's parameters
	// Expr is the expression written for it: a function's body, a
	// field's value as written (for editors, which show both).
	Expr lang.Expr
}

// Fields lists every field of the machine with its reference path, in
// declaration order; functions are listed with their parameters.
func (m *Machine) Fields() []Field {
	var out []Field
	var walk func(o *object)
	walk = func(o *object) {
		fields := o.fields
		if o == m.root {
			fields = m.rootFields()
		}
		for _, f := range fields {
			fl := Field{Path: f.path(), Value: f.val, Pos: f.decl.Pos, Func: f.decl.IsFunc(), Expr: f.decl.Value}
			for _, p := range f.decl.Params {
				fl.Params = append(fl.Params, p.Name)
			}
			out = append(out, fl)
		}
		for i, e := range o.ends {
			if e.typ != nil {
				out = append(out, Field{Path: fmt.Sprintf("%s.processortype(%d)", o.path(), i), Value: e.typ.val, Pos: e.typ.decl.Pos})
			}
			if e.number != nil {
				out = append(out, Field{Path: fmt.Sprintf("%s.processornumber(%d)", o.path(), i), Value: e.number.val, Pos: e.number.decl.Pos})
			}
		}
		for _, c := range o.children {
			walk(c)
		}
	}
	walk(m.root)
	return out
}

// Names lists every reference a user can type, for completion: params,
// model sections and their primitives, block references and their fields.
func (m *Machine) Names() []string {
	set := map[string]bool{}
	for _, f := range m.Fields() {
		if f.Func {
			set[f.Path+"("] = true
		} else {
			set[f.Path] = true
		}
	}
	for _, c := range m.root.children {
		set[c.path()] = true
	}
	for n := range builtins {
		set[n+"("] = true
	}
	for n := range indexes {
		set[n] = true
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// OnTopology is the machine with the topology labelled label as its
// topology, as loaded WithTopology(label); "" is its first.
func (m *Machine) OnTopology(label string) (*Machine, error) {
	if label == m.loader.opts.topology {
		return m, nil
	}
	l := *m.loader
	l.opts.topology = label
	return build(&l, m.name)
}

// Derive makes a virtual machine: the same description with some values
// overridden. Everything that depends on an overridden value changes.
func (m *Machine) Derive(sets ...Set) (*Machine, error) {
	l := *m.loader
	l.opts.sets = append(append([]Set(nil), m.loader.opts.sets...), sets...)
	return build(&l, m.name)
}
