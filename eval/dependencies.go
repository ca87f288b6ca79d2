package eval

import "github.com/parasol-lang/parasol/lang"

// Fields refer to fields, which refer to fields: a generated machine can
// hold a chain of a quarter of a million params (p0 = p1 + 1, p1 = p2 + 1,
// …). Evaluating such a chain by plain recursion (value → compile → ref →
// value) would need a Go stack frame group per link and overflow the
// goroutine stack. Instead, before a field is evaluated, the fields its
// expression names are found statically (as hcl's Expression.Variables
// does) and evaluated first, depth first, from an explicit work stack; by
// the time a field's own expression is compiled, every field it refers to
// already has its value, so its evaluation recurses one level only.
//
// The static references are a hint, not the meaning: evaluation still
// resolves every name as before, and a reference the walk misses is
// evaluated when the compiler reaches it, as it always was. Cycles are
// found as before: a field on the work stack is "evaluating", and the
// compiler's reference to it reports the cycle with every step.

// pending is a field on the work stack, with the fields it refers to.
type pending struct {
	f    *field
	deps []dep
	next int // deps[next:] are still to be visited
	// partial: some references sit behind labels that name fields not yet
	// evaluated (processor(p).clock); they are found by a second walk once
	// those fields have values.
	partial bool
}

// dep is a reference to a field and where it stands.
type dep struct {
	f    *field
	from lang.Pos
}

// evaluate evaluates f, and before it every field it refers to, without
// recursion: on return f is evaluated (or, for a function, compiled).
func (m *Machine) evaluate(f *field, from lang.Pos) {
	base := len(m.work)
	m.push(f, from)
	for len(m.work) > base {
		top := &m.work[len(m.work)-1]
		if top.next < len(top.deps) {
			d := top.deps[top.next]
			top.next++
			if waiting(d.f) {
				m.push(d.f, d.from)
			}
			continue
		}
		if top.partial {
			// Walking labels can evaluate fields, which grows m.work:
			// top may point into the old array afterwards.
			i := len(m.work) - 1
			deps, partial := m.references(top.f)
			m.work[i].deps, m.work[i].partial, m.work[i].next = deps, partial, 0
			if hasUnevaluated(deps) {
				continue
			}
			top = &m.work[i]
		}
		// g stays on the work stack while it is evaluated, so that a
		// reference the walk missed, evaluated from inside, stacks above.
		i, g := len(m.work)-1, top.f
		if g.decl.IsFunc() {
			// Not on m.stack: a cycle through a function is reported
			// between the fields it joins, as the compiler finds it.
			m.function(g)
			g.state = evaluated
			m.work = m.work[:i]
			continue
		}
		v, err := m.evalField(g)
		m.stack = m.stack[:len(m.stack)-1]
		m.work = m.work[:i]
		g.state, g.val = evaluated, v
		g.setFailure(err)
	}
	if len(m.work) == 0 && len(m.stack) == 0 && (cap(m.work) > keptStack || cap(m.stack) > keptStack) {
		// A long chain leaves long stacks behind; they are not needed
		// after loading. Short ones serve the next field.
		m.work, m.stack = nil, nil
	}
}

// keptStack is the capacity of the evaluation stacks kept from one field
// to the next.
const keptStack = 64

// push puts f on the work stack, marked as being evaluated.
func (m *Machine) push(f *field, from lang.Pos) {
	f.state = evaluating
	if !f.decl.IsFunc() {
		m.stack = append(m.stack, evalStep{f, from})
	}
	deps, partial := m.references(f)
	m.work = append(m.work, pending{f: f, deps: deps, partial: partial})
}

// waiting says whether f has yet to be evaluated (a function: compiled).
// A function compiled outside evaluate is never marked evaluated, but has
// its fn.
func waiting(f *field) bool {
	return f.state == unevaluated && (!f.decl.IsFunc() || f.compiled() == nil)
}

func hasUnevaluated(deps []dep) bool {
	for _, d := range deps {
		if waiting(d.f) {
			return true
		}
	}
	return false
}

// references lists the fields and functions f's expression names, in the
// order the compiler meets them; partial is set when a label that names an
// unevaluated field hides some.
func (m *Machine) references(f *field) ([]dep, bool) {
	switch f.decl.Value.(type) {
	case *lang.NumberLit, *lang.StringLit, *lang.BoolLit:
		return nil, false // most fields of a large file, and they name nothing
	}
	w := refWalker{c: &compiler{m: m}}
	sc := &scope{obj: f.obj}
	if f.decl.IsFunc() {
		sc.locals = map[string]local{}
		for _, p := range f.decl.Params {
			sc.locals[p.Name] = local{}
		}
	}
	w.expr(f.decl.Value, sc)
	return w.deps, w.partial
}

type refWalker struct {
	c       *compiler
	deps    []dep
	partial bool
}

func (w *refWalker) expr(e lang.Expr, sc *scope) {
	lang.Inspect(e, func(e lang.Expr) bool {
		switch e := e.(type) {
		case *lang.Ident:
			if _, local := sc.lookup(e.Name); !local {
				w.ref(e, e.Pos, sc)
			}
		case *lang.Select:
			// A reference names its field; otherwise its operand may.
			return !w.ref(e, e.Pos, sc)
		case *lang.Call:
			w.call(e, sc)
			return false
		case *lang.Sum:
			w.expr(e.From, sc)
			w.expr(e.To, sc)
			inner := &scope{obj: sc.obj, parent: sc, locals: map[string]local{e.Var: {}}}
			w.expr(e.Body, inner)
			return false
		}
		return true
	})
}

func (w *refWalker) call(e *lang.Call, sc *scope) {
	if id, ok := e.Fn.(*lang.Ident); ok {
		if _, local := sc.lookup(id.Name); local {
			return // not callable; the compiler says so
		}
	}
	if !w.labelsReady(e.Fn, sc) {
		return
	}
	t, err := w.c.target(e.Fn, sc)
	switch {
	case err == nil && t.fld != nil && t.fld.decl.IsFunc():
		w.deps = append(w.deps, dep{t.fld, e.Pos})
	case err == nil && (t.kind != "" || t.end != ""):
		w.ref(e, e.Pos, sc) // processor(1): a block reference
		return
	}
	for _, a := range e.Args {
		w.expr(a, sc)
	}
}

// ref records the field a reference expression names, if it names one
// statically; it reports whether e was a reference at all.
func (w *refWalker) ref(e lang.Expr, at lang.Pos, sc *scope) bool {
	if !w.labelsReady(e, sc) {
		return true
	}
	t, err := w.c.target(e, sc)
	if err != nil {
		return false
	}
	if t.fld != nil && !t.fld.decl.IsFunc() {
		w.deps = append(w.deps, dep{t.fld, at})
	}
	return true
}

// labelsReady walks the labels in a reference (the 1 in processor(1).x)
// for the fields they name; resolving the reference compiles its labels,
// so it waits (partial) until those fields are evaluated.
func (w *refWalker) labelsReady(e lang.Expr, sc *scope) bool {
	ready := true
	for {
		switch x := e.(type) {
		case *lang.Select:
			e = x.X
			continue
		case *lang.Call:
			before := len(w.deps)
			for _, a := range x.Args {
				w.expr(a, sc)
			}
			if hasUnevaluated(w.deps[before:]) {
				ready = false
			}
			e = x.Fn
			continue
		}
		break
	}
	if !ready {
		w.partial = true
	}
	return ready
}
