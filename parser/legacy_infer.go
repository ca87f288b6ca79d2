package parser

import (
	"math"

	"github.com/parasol-lang/parasol/lang"
)

// The unit of a Parasol I expression, inferred from its text for
// Modernize. The inference is sound, not complete: whenever it says an
// expression is a plain number, a time, a bool, …, every evaluation that
// does not fail gives a value of that kind; when it cannot tell, it says
// so, and Modernize applies the implied unit when the value is computed.

// dimInfo is what is known of an expression's value.
type dimInfo struct {
	known bool
	num   bool // a number (when known); otherwise a bool or a string
	dim   lang.Dim
}

var (
	unknownDim = dimInfo{}
	notNumber  = dimInfo{known: true}
	plainDim   = dimInfo{known: true, num: true}
)

func numDim(d lang.Dim) dimInfo { return dimInfo{known: true, num: true, dim: d} }

func (d dimInfo) isNum() bool { return d.known && d.num }

// inferScope is where an expression is: the model section it is in ("" for
// other blocks) and the parameters of its function, or the kind of block
// and the fields it defines once.
type inferScope struct {
	section  string
	params   map[string]dimInfo
	kind     string
	siblings map[string]*lang.Field
}

// scope makes the scope of a field of a model section (or of another block
// when section is ""), with what the body tells about its parameters.
func (mz *modernizer) scope(section string, params []*lang.Param) *inferScope {
	sc := &inferScope{section: section, params: map[string]dimInfo{}}
	for _, p := range params {
		if p.Unit == "" {
			sc.params[p.Name] = unknownDim
		} else {
			// A plain argument is converted to the unit, and one of
			// another unit is an error.
			u, _ := lang.LookupUnit(p.Unit)
			sc.params[p.Name] = numDim(u.Dim)
		}
	}
	return sc
}

// constrain learns the units of untyped parameters from the places that
// are evaluated whenever the body is and that fail unless the parameter
// has one unit: n in n < 10, n + 1us, log2(n).
func (mz *modernizer) constrain(body lang.Expr, sc *inferScope) {
	for changed := true; changed; {
		changed = false
		learn := func(e lang.Expr, d dimInfo) {
			id, ok := e.(*lang.Ident)
			if !ok || !d.isNum() {
				return
			}
			if cur, isParam := sc.params[id.Name]; isParam && !cur.known {
				sc.params[id.Name] = d
				changed = true
			}
		}
		var walk func(e lang.Expr)
		walk = func(e lang.Expr) {
			switch e := e.(type) {
			case *lang.Unary:
				walk(e.X)
			case *lang.Binary:
				walk(e.X)
				if e.Op == lang.And || e.Op == lang.Or {
					return // the right side may not be evaluated
				}
				walk(e.Y)
				switch e.Op {
				case lang.Add, lang.Sub, lang.Eq, lang.Ne, lang.Lt, lang.Le, lang.Gt, lang.Ge:
					learn(e.X, mz.infer(e.Y, sc))
					learn(e.Y, mz.infer(e.X, sc))
				case lang.Pow:
					learn(e.Y, plainDim)
				}
			case *lang.Cond:
				walk(e.If) // a branch may not be evaluated
			case *lang.Sum:
				// The bounds are checked to be plain only when their unit is
				// known from the text, so they teach nothing.
				walk(e.From)
				walk(e.To)
			case *lang.Select:
				walk(e.X)
			case *lang.Call:
				for _, a := range e.Args {
					walk(a)
				}
				id, ok := e.Fn.(*lang.Ident)
				if !ok || !mz.isBuiltin(id.Name, sc) {
					return
				}
				switch id.Name {
				case "log2", "log", "exp":
					if len(e.Args) == 1 {
						learn(e.Args[0], plainDim)
					}
				case "min", "max", "mod":
					for i, a := range e.Args {
						for j, b := range e.Args {
							if i != j {
								learn(a, mz.infer(b, sc))
							}
						}
					}
				}
			}
		}
		walk(body)
	}
}

// isBuiltin reports whether a called name is the built-in function rather
// than a field in scope, which the evaluator looks up first.
func (mz *modernizer) isBuiltin(name string, sc *inferScope) bool {
	if !mz.schema.Builtin(name) {
		return false
	}
	if _, ok := sc.params[name]; ok {
		return false
	}
	return !mz.rootVals[name] && (sc.section == "" || mz.sections[sc.section][name] == nil)
}

// infer says what is known of the value of e.
func (mz *modernizer) infer(e lang.Expr, sc *inferScope) dimInfo {
	switch e := e.(type) {
	case *lang.NumberLit:
		return numDim(e.Value.Dim)
	case *lang.StringLit, *lang.BoolLit:
		return notNumber
	case *lang.Ident:
		if d, ok := sc.params[e.Name]; ok {
			return d
		}
		if f := mz.primitive(sc.section, e.Name, sc); f != nil && !f.IsFunc() {
			return mz.primitiveDim(sc.section, f)
		}
		if f := sc.siblings[e.Name]; f != nil && !f.IsFunc() {
			return schemaDim(mz.schema.Field(sc.kind, e.Name))
		}
		return unknownDim
	case *lang.Unary:
		x := mz.infer(e.X, sc)
		if e.Op == lang.Not {
			return notNumber
		}
		return x
	case *lang.Binary:
		x, y := mz.infer(e.X, sc), mz.infer(e.Y, sc)
		switch e.Op {
		case lang.Eq, lang.Ne, lang.Lt, lang.Le, lang.Gt, lang.Ge:
			return notNumber
		case lang.Add, lang.Sub:
			// Both sides have one unit, or the evaluation fails.
			if x.isNum() {
				return x
			}
			if y.isNum() {
				return y
			}
		case lang.Mul:
			if x.isNum() && y.isNum() {
				return numDim(x.dim.Mul(y.dim))
			}
		case lang.Div:
			if x.isNum() && y.isNum() {
				return numDim(x.dim.Div(y.dim))
			}
		case lang.Pow:
			if x.isNum() && x.dim == lang.Dimensionless {
				return plainDim
			}
			if n, ok := e.Y.(*lang.NumberLit); ok && x.isNum() && n.Value.Dim == lang.Dimensionless && n.Value.Num == math.Trunc(n.Value.Num) && math.Abs(n.Value.Num) <= 8 {
				d := lang.Dim{}
				for range int(math.Abs(n.Value.Num)) {
					d = d.Mul(x.dim)
				}
				if n.Value.Num < 0 {
					d = lang.Dim{}.Div(d)
				}
				return numDim(d)
			}
		}
		return unknownDim
	case *lang.Cond:
		a, b := mz.infer(e.Then, sc), mz.infer(e.Else, sc)
		if a == b {
			return a
		}
		return unknownDim
	case *lang.Call:
		return mz.inferCall(e, sc)
	case *lang.Select:
		return mz.inferSelect(e, sc)
	case *lang.Sum:
		// A sum over an empty range is a plain 0 unless the evaluator
		// knows the body's unit from the text, which is not mirrored here.
		return unknownDim
	}
	return unknownDim
}

func (mz *modernizer) inferCall(e *lang.Call, sc *inferScope) dimInfo {
	switch fn := e.Fn.(type) {
	case *lang.Ident:
		if f := mz.primitive(sc.section, fn.Name, sc); f != nil {
			if !f.IsFunc() {
				return unknownDim
			}
			return mz.primitiveDim(sc.section, f)
		}
		if !mz.isBuiltin(fn.Name, sc) {
			return unknownDim
		}
		args := make([]dimInfo, len(e.Args))
		for i, a := range e.Args {
			args[i] = mz.infer(a, sc)
		}
		switch fn.Name {
		case "log2", "log", "exp", "hops":
			return plainDim
		case "min", "max", "mod":
			for _, a := range args {
				if a.isNum() {
					return a
				}
			}
		case "ceil", "floor", "round", "abs":
			if len(args) == 1 {
				return args[0]
			}
		}
		return unknownDim
	case *lang.Select:
		// SECTION.primitive(…)
		if id, ok := fn.X.(*lang.Ident); ok && mz.isSection(id.Name, sc) {
			if f := mz.unique(id.Name, fn.Name); f != nil && f.IsFunc() {
				return mz.primitiveDim(id.Name, f)
			}
		}
	}
	return unknownDim
}

// inferSelect knows the unit of a reference to a schema field, such as
// processor(1).createjob or topology(100).link(0).linkspeed, and of a
// primitive of another section, such as PVM.pack.
func (mz *modernizer) inferSelect(e *lang.Select, sc *inferScope) dimInfo {
	var kind string
	switch x := e.X.(type) {
	case *lang.Ident:
		if mz.isSection(x.Name, sc) {
			if f := mz.unique(x.Name, e.Name); f != nil && !f.IsFunc() {
				return mz.primitiveDim(x.Name, f)
			}
			return unknownDim
		}
		if _, shadowed := sc.params[x.Name]; shadowed || mz.rootVals[x.Name] || mz.primitive(sc.section, x.Name, sc) != nil {
			return unknownDim
		}
		kind = x.Name
	case *lang.Call:
		switch fn := x.Fn.(type) {
		case *lang.Ident:
			if _, shadowed := sc.params[fn.Name]; shadowed || mz.rootVals[fn.Name] || mz.primitive(sc.section, fn.Name, sc) != nil {
				return unknownDim
			}
			kind = fn.Name
		case *lang.Select:
			kind = fn.Name
		}
	case *lang.Select:
		kind = x.Name
	}
	if !mz.schema.KnownKind(kind) {
		return unknownDim
	}
	return schemaDim(mz.schema.Field(kind, e.Name))
}

// schemaDim is what the schema says of a field's value once loaded.
func schemaDim(t FieldType) dimInfo {
	switch t.Kind {
	case FieldAny:
		return unknownDim
	case FieldBool, FieldString, FieldSymbol:
		return notNumber
	}
	return numDim(t.Dim)
}

// isSection reports whether a name refers to a model section here: no
// parameter or field in scope has the name.
func (mz *modernizer) isSection(name string, sc *inferScope) bool {
	if _, ok := mz.sections[name]; !ok {
		return false
	}
	_, isParam := sc.params[name]
	return !isParam && !mz.rootVals[name] && mz.primitive(sc.section, name, sc) == nil
}

// primitive finds the field a bare name in a section refers to, if it is
// defined there once (the evaluator looks in the section first).
func (mz *modernizer) primitive(section, name string, sc *inferScope) *lang.Field {
	if section == "" {
		return nil
	}
	if _, isParam := sc.params[name]; isParam {
		return nil
	}
	return mz.unique(section, name)
}

func (mz *modernizer) unique(section, name string) *lang.Field {
	if fs := mz.sections[section][name]; len(fs) == 1 {
		return fs[0]
	}
	return nil
}

// primitiveDim is what is known of the value of a primitive after the
// Parasol I rule: a plain result is a time.
func (mz *modernizer) primitiveDim(section string, f *lang.Field) dimInfo {
	p := mz.prims[f]
	if p == nil {
		p = &primDim{}
		mz.prims[f] = p
	}
	switch {
	case p.done:
		return p.dim
	case p.busy:
		return unknownDim // a cycle, which the loader reports
	}
	p.busy = true
	sc := mz.scope(section, f.Params)
	mz.constrain(f.Value, sc)
	d := mz.legacyDim(f.Value, sc)
	p.busy, p.done, p.dim = false, true, d
	return d
}

// legacyDim is what is known of a primitive's value once a plain result
// has become a time.
func (mz *modernizer) legacyDim(body lang.Expr, sc *inferScope) dimInfo {
	if c, ok := body.(*lang.Cond); ok {
		a, b := mz.legacyDim(c.Then, sc), mz.legacyDim(c.Else, sc)
		if a == b {
			return a
		}
		return unknownDim
	}
	d := mz.infer(body, sc)
	if d.isNum() && d.dim == lang.Dimensionless {
		return numDim(lang.TimeDim)
	}
	return d
}
