package eval

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/registry"
)

// The resolver decides what every name of a machine means from the syntax
// and the schema alone, before anything is compiled or evaluated, in the
// manner of starlark-go's resolve package: a field (and which), a function
// parameter or loop variable, a block, a built-in function, a derived
// index, or a word such as wormhole that a name-valued field takes. Each
// decision is recorded in a side table keyed by the syntax node, as go/types
// records types, never in the tree itself: one tree (an imported file, a
// machine another extends) is shared by machines in which its names mean
// different things. The compiler consumes the table and looks no name up
// itself, except a local's slot.
//
// Every unknown name is reported, each with its position and a suggestion
// drawn from what is in scope where it stands: a field of the block it is
// written in, a value or function visible there, a word of the field's
// enumeration. A field whose name is unknown is reported once, and its
// value is not resolved, so that a misspelt field does not also give an
// unknown name for its value.
//
// A label may be computed (processor(p).clock with p a param). The
// resolver then knows the kind of block and checks that some block of that
// kind can hold the name; which block is meant is decided when the label's
// value is known, as the compiler compiles it.

type bindKind uint8

const (
	bLocal    bindKind = iota + 1 // a function parameter, loop or sum variable
	bField                        // a field or function: fld
	bBlock                        // a block: obj
	bKind                         // the blocks of kind name under obj, waiting for a label
	bEnds                         // a Parasol I link's processornumber/processortype list
	bDyn                          // a reference through a computed label (dyn says what it names)
	bBuiltin                      // a built-in function: name
	bHops                         // hops(a, b)
	bIndex                        // a derived index: name
	bCompComm                     // processor(P).compcomm
	bWord                         // a word as a value: name
	bBad                          // an error already reported: err
)

// dynWhat is what a reference through a computed label names.
type dynWhat uint8

const (
	dynBlock dynWhat = iota + 1 // a block of kind dkind
	dynKind                     // the blocks of kind dkind, waiting for a label
	dynEnds                     // a link's processornumber/processortype list
	dynField                    // a field
)

type binding struct {
	kind  bindKind
	fld   *field
	obj   *object
	name  string
	dyn   dynWhat
	dkind string
	err   error
}

var (
	localBinding = &binding{kind: bLocal}
	hopsBinding  = &binding{kind: bHops}
)

// resolution is the side table. A query's table sits above its machine's,
// so that resolving a query never writes to a loaded machine; a machine
// extended by a layer of its own (extend.go) has the layer's table above
// the machine's it extends.
type resolution = layeredMap[lang.Expr, *binding]

func newResolution(parent *resolution) *resolution {
	return &resolution{below: parent, m: map[lang.Expr]*binding{}}
}

// resolver fills a resolution, reporting into errs.
type resolver struct {
	m    *Machine
	res  *resolution
	errs *lang.Diagnostics
	// free, when set, gathers the names lookup found no field for.
	free map[string]bool
	// held caches, per kind of block, every name some block of that kind
	// holds (fields, child blocks), for references through computed labels.
	held map[string]map[string]bool

	scopes []rscope // see object
}

// rscope is where a name stands: the block whose fields bare names mean,
// and the locals declared around it.
type rscope struct {
	obj    *object
	locals []string
	parent *rscope
}

func (s *rscope) isLocal(name string) bool {
	for ; s != nil; s = s.parent {
		for _, l := range s.locals {
			if l == name {
				return true
			}
		}
	}
	return false
}

func (r *resolver) bind(e lang.Expr, b *binding) { r.res.m[e] = b }

// fail reports d and marks e as failed, so the compiler stays quiet.
func (r *resolver) fail(e lang.Expr, d *lang.Diagnostic) {
	*r.errs = append(*r.errs, d)
	r.bind(e, &binding{kind: bBad, err: d})
}

// errAt is an error whose range is e's text.
func errAt(e lang.Expr, format string, args ...any) *lang.Diagnostic {
	return lang.Errorf(lang.Start(e), format, args...).Span(lang.End(e))
}

// resolveAll resolves every field, function and topology statement of the
// machine.
func (m *Machine) resolveAll() {
	free := map[string]bool{}
	r := &resolver{m: m, res: m.res, errs: &m.errs, free: free}
	r.object(m.root)
	m.free = m.free.push(free)
}

// resolveQuery resolves an expression typed by a user, in a table of its
// own above the machine's.
func (m *Machine) resolveQuery(e lang.Expr, obj *object) (*resolution, error) {
	var errs lang.Diagnostics
	r := &resolver{m: m, res: newResolution(m.res), errs: &errs}
	r.expr(e, &rscope{obj: obj})
	return r.res, errs.Err()
}

func (r *resolver) object(o *object) {
	// Shared by the block's fields (a Parasol I link has eight), and cut
	// from a slab: a file has a block per link.
	sc := take(&r.scopes)
	sc.obj = o
	for _, f := range o.fields {
		r.field(f, sc)
	}
	for _, e := range o.ends {
		if e.typ != nil {
			r.field(e.typ, sc)
		}
		if e.number != nil {
			r.field(e.number, sc)
		}
	}
	if o.kind == "topology" {
		r.topology(o)
	}
	for _, c := range o.children {
		r.object(c)
	}
}

// field checks a field's name against the schema and resolves its value;
// sc is the scope of the field's block.
func (r *resolver) field(f *field, sc *rscope) {
	kind := f.obj.kind
	spec, known := fieldSpecOf(kind, f.name)
	blk := blockOf(kind)
	isFunc := f.decl.IsFunc()
	switch {
	case isFunc && (blk == nil || !blk.funcs):
		r.badField(f, fmt.Sprintf("%s(…) is a function; functions belong at machine level or in a model section, not in %s", lang.Excerpt(f.name), describe(f.obj)))
		return
	case !known && !f.isParam && !isFunc:
		r.badField(f, r.unknownField(f))
		return
	}
	if isFunc {
		inner := &rscope{obj: f.obj}
		for _, p := range f.decl.Params {
			inner.locals = append(inner.locals, p.Name)
		}
		r.expr(f.decl.Value, inner)
		return
	}
	if !known {
		spec = fieldSpec{}
	}
	r.value(f.decl.Value, sc, spec, f.name, f.legacy && kind != "modelsection")
}

// badField reports a field that may not stand where it does, and marks it
// failed so that nothing evaluates it and what refers to it stays quiet.
func (r *resolver) badField(f *field, msg string) {
	d := lang.Errorf(f.decl.Pos, "%s", msg).Span(nameEnd(f.decl.Pos, f.name))
	*r.errs = append(*r.errs, d)
	f.state = evaluated
	f.setFailure(depError{d})
	if f.decl.IsFunc() {
		n := len(f.decl.Params)
		f.more().fn = &function{f: f, params: f.decl.Params, scale: make([]float64, n), dims: make([]lang.Dim, n), units: make([]bool, n)}
	}
}

func (r *resolver) unknownField(f *field) string {
	o := f.obj
	cands := schemaNames(o.kind)
	for _, g := range o.fields {
		if g != f && (g.isParam || g.decl.IsFunc()) {
			cands = append(cands, g.name)
		}
	}
	msg := fmt.Sprintf("unknown field %s in %s%s", lang.Excerpt(quoteField(f.name)), describe(o), lang.DidYouMean(f.name, cands))
	if b := blocks[o.kind]; b != nil && b.params {
		msg += fmt.Sprintf("; a value of your own is declared with param: param %s = …", lang.Excerpt(quoteField(f.name)))
	}
	return msg
}

func quoteField(name string) string {
	if lang.IsIdent(name) {
		return name
	}
	return fmt.Sprintf("%q", name)
}

// describe names a block for a message: topology t, processor cpu,
// link 0 of topology 100, machine "m".
func describe(o *object) string {
	switch {
	case o.parent == nil:
		return fmt.Sprintf("machine %q", o.label)
	case o.kind == "modelsection":
		return "model section " + o.label
	case o.label == "":
		return o.path()
	case o.parent.parent != nil:
		return o.kind + " " + quoteLabel(o.label) + " of " + describe(o.parent)
	}
	return o.kind + " " + quoteLabel(o.label)
}

// nameEnd is the end of a field's name as written at pos: quoted, or as is.
func nameEnd(pos lang.Pos, name string) lang.Pos {
	if pos.Src == nil || !pos.IsValid() {
		return lang.Pos{}
	}
	text := pos.Src.Text[pos.Offset:]
	if strings.HasPrefix(text, name) {
		return pos.Src.PosAt(pos.Offset + len(name))
	}
	if strings.HasPrefix(text, `"`) {
		if i := strings.IndexAny(text[1:], "\"\n"); i >= 0 {
			return pos.Src.PosAt(pos.Offset + i + 2)
		}
	}
	return lang.Pos{}
}

// value resolves a field's value. Where the schema wants a name (switching,
// node, fp type), or a Parasol I field takes a bare word, a word that names
// no value in scope is the word itself; an enumerated field's words are
// checked here, where they are written.
func (r *resolver) value(e lang.Expr, sc *rscope, spec fieldSpec, fname string, legacyWords bool) {
	switch spec.typ {
	case tSymbol, tString, tBool:
	case tAny:
		if !legacyWords {
			r.expr(e, sc)
			return
		}
	default:
		r.expr(e, sc)
		return
	}
	if c, ok := e.(*lang.Cond); ok && spec.enum != nil {
		r.expr(c.If, sc)
		r.value(c.Then, sc, spec, fname, legacyWords)
		r.value(c.Else, sc, spec, fname, legacyWords)
		return
	}
	if s, ok := e.(*lang.StringLit); ok && spec.enum != nil {
		if _, found := spec.enum.Lookup(s.Value); !found {
			*r.errs = append(*r.errs, unknownWord(e, s.Value, spec.enum))
		}
		return
	}
	w, ok := wordOf(e, spec.typ == tSymbol)
	if !ok {
		r.expr(e, sc)
		return
	}
	if spec.enum != nil {
		if en, found := spec.enum.Lookup(w); found {
			r.bind(e, &binding{kind: bWord, name: en.Name})
			return
		}
	}
	if r.namesValue(e, sc) {
		r.expr(e, sc)
		return
	}
	switch {
	case spec.enum != nil:
		r.fail(e, unknownWord(e, w, spec.enum))
		return
	case fname == "node" && sc.obj.kind == "topology" && r.m.nodeType(w) == nil:
		r.fail(e, errAt(e, "no processor or switch %s%s", lang.Excerpt(quoteLabel(w)), lang.DidYouMean(w, r.m.nodeTypeLabels())))
		return
	case fname == "switch" && sc.obj.kind == "topology" && r.m.root.child("switch", w) == nil:
		r.fail(e, errAt(e, "no switch %s%s", lang.Excerpt(quoteLabel(w)), lang.DidYouMean(w, r.m.labelsOf("switch"))))
		return
	case fname == "nic" && sc.obj.kind == "processor" && r.m.root.child("nic", w) == nil:
		r.fail(e, errAt(e, "no nic %s%s", lang.Excerpt(quoteLabel(w)), lang.DidYouMean(w, r.m.labelsOf("nic"))))
		return
	}
	r.bind(e, &binding{kind: bWord, name: w})
}

func unknownWord(e lang.Expr, w string, en *registry.Enum) *lang.Diagnostic {
	return errAt(e, "unknown %s %s%s; %s is one of %s", en.What, lang.Excerpt(w), lang.DidYouMean(w, en.Spellings()), en.What, en.List())
}

// wordOf reads a bare word: a name, or with hyphens a name such as
// short-queue, which the parser reads as a subtraction.
func wordOf(e lang.Expr, hyphens bool) (string, bool) {
	switch e := e.(type) {
	case *lang.Ident:
		return e.Name, true
	case *lang.Binary:
		if !hyphens || e.Op != lang.Sub {
			return "", false
		}
		a, ok1 := wordOf(e.X, true)
		b, ok2 := wordOf(e.Y, true)
		if ok1 && ok2 {
			return a + "-" + b, true
		}
	}
	return "", false
}

// namesValue says whether a word is an expression after all: every name
// in it is a value in scope (a param holding a routing's name).
func (r *resolver) namesValue(e lang.Expr, sc *rscope) bool {
	switch e := e.(type) {
	case *lang.Ident:
		if sc.isLocal(e.Name) {
			return true
		}
		if b := r.lookup(e.Name, sc); b != nil {
			return b.kind == bField && !b.fld.decl.IsFunc()
		}
		_, ix := indexes[e.Name]
		return ix
	case *lang.Binary:
		return r.namesValue(e.X, sc) && r.namesValue(e.Y, sc)
	}
	return false
}

// lookup finds what a bare name means as a reference: the nearest field of
// that name, a model section, a block with no label, a kind of block.
func (r *resolver) lookup(name string, sc *rscope) *binding {
	for o := sc.obj; o != nil; o = o.parent {
		if f := o.field(name); f != nil {
			return &binding{kind: bField, fld: f}
		}
	}
	if f := r.m.own.byName.get(name); f != nil {
		return &binding{kind: bField, fld: f}
	}
	if r.free != nil {
		r.free[name] = true
	}
	root := r.m.root
	// By map, not by scanning the children: a machine of 40,000
	// processors refers to them 40,000 times.
	if ch := root.child("modelsection", name); ch != nil {
		return &binding{kind: bBlock, obj: ch}
	}
	if ch := root.child(name, ""); ch != nil {
		return &binding{kind: bBlock, obj: ch}
	}
	if knownKind(name) && parentKind(name) == "machine" {
		return &binding{kind: bKind, obj: root, name: name}
	}
	return nil
}

// expr resolves the names of an expression. References and calls are
// resolved whole (ref, call); a sum's body sees its variable; a named
// argument, an error outside a program statement's call that the program
// compiler reports where it stands, is not resolved.
func (r *resolver) expr(e lang.Expr, sc *rscope) {
	lang.Inspect(e, func(e lang.Expr) bool {
		switch e := e.(type) {
		case *lang.Ident:
			r.ident(e, sc)
		case *lang.Select:
			r.ref(e, sc)
			return false
		case *lang.Call:
			r.call(e, sc)
			return false
		case *lang.Sum:
			r.expr(e.From, sc)
			r.expr(e.To, sc)
			r.expr(e.Body, &rscope{obj: sc.obj, locals: []string{e.Var}, parent: sc})
			return false
		case *lang.NamedArg:
			return false
		}
		return true
	})
}

// ident resolves a bare name used as a value (or as the start of a
// reference).
func (r *resolver) ident(e *lang.Ident, sc *rscope) {
	if sc.isLocal(e.Name) {
		r.bind(e, localBinding)
		return
	}
	if b := r.lookup(e.Name, sc); b != nil {
		r.bind(e, b)
		return
	}
	if _, ok := indexes[e.Name]; ok {
		r.bind(e, &binding{kind: bIndex, name: e.Name})
		return
	}
	r.fail(e, r.unknownName(e, sc, false))
}

func (r *resolver) unknownName(e *lang.Ident, sc *rscope, call bool) *lang.Diagnostic {
	for _, ch := range r.m.root.children {
		if ch.kind == "modelsection" && ch.get(e.Name) != nil {
			return errAt(e, "unknown name %s (did you mean %s.%s?)", lang.Excerpt(e.Name), ch.label, lang.Excerpt(e.Name))
		}
	}
	what := "name"
	if call {
		what = "function"
	}
	return errAt(e, "unknown %s %s%s", what, lang.Excerpt(e.Name), lang.DidYouMean(e.Name, r.visible(sc, call)))
}

// visible lists what a bare name could mean where it stands, for
// suggestions: values where a value is wanted, functions where one is
// called.
func (r *resolver) visible(sc *rscope, call bool) []string {
	var out []string
	if !call {
		for s := sc; s != nil; s = s.parent {
			out = append(out, s.locals...)
		}
	}
	for o := sc.obj; o != nil; o = o.parent {
		fields := o.fields
		if o == r.m.root {
			fields = r.m.rootFields()
		}
		for _, f := range fields {
			if f.decl.IsFunc() == call {
				out = append(out, f.name)
			}
		}
	}
	if call {
		for n := range builtins {
			out = append(out, n)
		}
		for _, k := range blockKinds {
			if parentKind(k) == "machine" {
				out = append(out, k)
			}
		}
	} else {
		for _, ch := range r.m.root.children {
			if ch.kind == "modelsection" {
				out = append(out, ch.label)
			}
		}
		for n := range indexes {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// head resolves the start of a reference; whether it names a block is
// checked by ref, so a bare name resolves as any other.
func (r *resolver) head(e lang.Expr, sc *rscope) {
	switch e := e.(type) {
	case *lang.Ident:
		r.ident(e, sc)
	case *lang.Select:
		r.ref(e, sc)
	case *lang.Call:
		r.call(e, sc)
	default:
		r.expr(e, sc)
	}
}

// ref resolves x.name.
func (r *resolver) ref(e *lang.Select, sc *rscope) {
	r.head(e.X, sc)
	bx := r.res.get(e.X)
	if bx == nil {
		r.fail(e, errAt(e, "%s has no fields: it is not a reference", format.Expr(e.X)))
		return
	}
	switch bx.kind {
	case bBad:
		r.bind(e, bx)
	case bBlock:
		r.member(e, bx.obj)
	case bDyn:
		if bx.dyn != dynBlock {
			r.fail(e, noFields(e, bx))
			return
		}
		r.dynMember(e, bx.dkind)
	default:
		r.fail(e, noFields(e, bx))
	}
}

func noFields(e *lang.Select, bx *binding) *lang.Diagnostic {
	var what string
	switch {
	case bx.kind == bField && bx.fld.decl.IsFunc():
		what = "a function"
	case bx.kind == bField || bx.kind == bDyn && bx.dyn == dynField:
		what = "a field"
	case bx.kind == bKind || bx.kind == bDyn && bx.dyn == dynKind:
		k := bx.name
		if bx.kind == bDyn {
			k = bx.dkind
		}
		what = "a kind of block; give a label: " + k + "(…)"
	case bx.kind == bEnds || bx.kind == bDyn && bx.dyn == dynEnds:
		what = "a list; index it: " + bx.name + "(0)"
	case bx.kind == bLocal:
		what = "a parameter"
	case bx.kind == bIndex:
		what = "a derived index"
	default:
		what = "not a block"
	}
	return errAt(e, "%s has no fields: it is %s", format.Expr(e.X), what)
}

// member resolves .name on a known block.
func (r *resolver) member(e *lang.Select, o *object) {
	name := e.Name
	switch {
	case o.field(name) != nil:
		r.bind(e, &binding{kind: bField, fld: o.field(name)})
	case o.kind == "processor" && isNICField(name) && o.nicBlock() != nil && o.nicBlock().field(name) != nil:
		// processor(pe).send_gap where pe's nic block states it
		r.bind(e, &binding{kind: bField, fld: o.nicBlock().field(name)})
	case o.kind == "processor" && isNICField(name) && o.nicComputed():
		// processor(pe).send_gap where pe names its nic block by a param:
		// the block is known once nic is evaluated (dynTarget).
		r.bind(e, &binding{kind: bDyn, dyn: dynField})
	case o.child(name, "") != nil:
		r.bind(e, &binding{kind: bBlock, obj: o.child(name, "")})
	case len(o.childrenOf(name)) > 0 || knownKind(name) && parentKind(name) == o.kind:
		r.bind(e, &binding{kind: bKind, obj: o, name: name})
	case o.kind == "link" && (name == "processornumber" || name == "processortype") && len(o.ends) > 0:
		r.bind(e, &binding{kind: bEnds, obj: o, name: name})
	case name == "compcomm" && o.kind == "processor":
		r.bind(e, &binding{kind: bCompComm})
	default:
		if _, known := fieldSpecOf(o.kind, name); known && !blocks[o.kind].own {
			r.fail(e, lang.Errorf(e.Pos, "%s does not set %s", o.path(), lang.Excerpt(name)).Span(lang.End(e)))
			return
		}
		r.fail(e, lang.Errorf(e.Pos, "%s has no field %s%s", o.path(), lang.Excerpt(name), lang.DidYouMean(name, o.names())).Span(lang.End(e)))
	}
}

// dynMember resolves .name on a block chosen by a computed label: some
// block of that kind must hold the name.
func (r *resolver) dynMember(e *lang.Select, kind string) {
	name := e.Name
	held := r.heldBy(kind)
	switch {
	case held[name]:
		r.bind(e, &binding{kind: bDyn, dyn: dynField})
	case held["\x01"+name]: // an unlabelled subsection such as float_timings
		r.bind(e, &binding{kind: bDyn, dyn: dynBlock, dkind: name})
	case held["\x00"+name] || knownKind(name) && parentKind(name) == kind:
		r.bind(e, &binding{kind: bDyn, dyn: dynKind, dkind: name})
	case kind == "link" && (name == "processornumber" || name == "processortype"):
		r.bind(e, &binding{kind: bDyn, dyn: dynEnds, name: name})
	case name == "compcomm" && kind == "processor":
		r.bind(e, &binding{kind: bCompComm})
	default:
		var cands []string
		for n := range held {
			if !strings.HasPrefix(n, "\x00") && !strings.HasPrefix(n, "\x01") {
				cands = append(cands, n)
			}
		}
		sort.Strings(cands)
		r.fail(e, lang.Errorf(e.Pos, "no %s has a field %s%s", kind, lang.Excerpt(name), lang.DidYouMean(name, cands)).Span(lang.End(e)))
	}
}

// heldBy lists the names some block of a kind holds: its fields, and its
// children's kinds (marked with a leading 1 when the child has no label,
// 0 when it has one).
func (r *resolver) heldBy(kind string) map[string]bool {
	if h, ok := r.held[kind]; ok {
		return h
	}
	h := map[string]bool{}
	var walk func(o *object)
	walk = func(o *object) {
		if o.kind == kind {
			for _, n := range o.fieldNames() {
				h[n] = true
				if strings.Contains(n, " ") {
					h[strings.ReplaceAll(n, " ", "_")] = true
				}
			}
			if kind == "link" {
				for old, modern := range linkAliases {
					if h[old] || h[modern] {
						h[old], h[modern] = true, true
					}
				}
			}
			for _, c := range o.children {
				if c.label == "" {
					h["\x01"+c.kind] = true
				} else {
					h["\x00"+c.kind] = true
				}
			}
		}
		for _, c := range o.children {
			walk(c)
		}
	}
	walk(r.m.root)
	if r.held == nil {
		r.held = map[string]map[string]bool{}
	}
	r.held[kind] = h
	return h
}

// call resolves f(args): a function, a built-in, or a label step such as
// processor(1).
func (r *resolver) call(e *lang.Call, sc *rscope) {
	switch fn := e.Fn.(type) {
	case *lang.Ident:
		switch {
		case sc.isLocal(fn.Name):
			r.fail(fn, errAt(fn, "%s is a parameter, not a function", lang.Excerpt(fn.Name)))
		case r.lookup(fn.Name, sc) != nil:
			r.bind(fn, r.lookup(fn.Name, sc))
		case fn.Name == "hops":
			r.bind(fn, hopsBinding)
		case builtins[fn.Name].apply != nil:
			r.bind(fn, &binding{kind: bBuiltin, name: fn.Name})
		default:
			r.fail(fn, r.unknownName(fn, sc, true))
		}
	case *lang.Select:
		r.ref(fn, sc)
	default:
		r.expr(fn, sc)
		r.fail(fn, errAt(fn, "%s is not a function", format.Expr(fn)))
	}
	fb := r.res.get(e.Fn)
	switch {
	case fb.kind == bKind || fb.kind == bEnds || fb.kind == bDyn && (fb.dyn == dynKind || fb.dyn == dynEnds):
		r.label(e, fb, sc)
		return
	case fb.kind == bBad:
		r.bind(e, fb)
	}
	for _, a := range e.Args {
		r.expr(a, sc)
	}
}

// label resolves kind(label): a bare word or a literal is the label as
// written; anything else is computed.
func (r *resolver) label(e *lang.Call, fb *binding, sc *rscope) {
	if len(e.Args) != 1 {
		what := fb.name
		if fb.kind == bDyn && fb.dyn == dynKind {
			what = fb.dkind
		}
		for _, a := range e.Args {
			r.expr(a, sc)
		}
		r.fail(e, lang.Errorf(e.Pos, "%s(…) takes one argument, the label", what))
		return
	}
	arg := e.Args[0]
	label, static := "", true
	switch a := arg.(type) {
	case *lang.NumberLit:
		label = labelOf(a.Value)
	case *lang.StringLit:
		label = a.Value
	case *lang.Ident:
		if r.namesValue(a, sc) {
			static = false
			r.expr(a, sc)
		} else {
			label = a.Name // processor(xcore): a bare label
			r.bind(a, &binding{kind: bWord, name: a.Name})
		}
	default:
		static = false
		r.expr(arg, sc)
	}
	if !static || fb.kind == bDyn {
		if fb.kind == bEnds || fb.dyn == dynEnds {
			r.bind(e, &binding{kind: bDyn, dyn: dynField})
			return
		}
		k := fb.name
		if fb.kind == bDyn {
			k = fb.dkind
		}
		r.bind(e, &binding{kind: bDyn, dyn: dynBlock, dkind: k})
		return
	}
	if fb.kind == bEnds {
		f, d := endField(fb.obj, fb.name, label, e)
		if d != nil {
			r.fail(e, d)
			return
		}
		r.bind(e, &binding{kind: bField, fld: f})
		return
	}
	o := fb.obj
	if ch := o.child(fb.name, label); ch != nil {
		r.bind(e, &binding{kind: bBlock, obj: ch})
		return
	}
	r.fail(e, noChild(o, fb.name, label, e))
}

// noChild explains a label that names no block.
func noChild(o *object, kind, label string, e *lang.Call) *lang.Diagnostic {
	if kind == "link" && o.gen != nil {
		return lang.Errorf(e.Pos, "%s is generated by %s: its links are not blocks; their latency and speed come from the link template (derived indexes: links, diameter, avgdist, bisection)", o.path(), format.Expr(o.gen))
	}
	var labels []string
	for _, ch := range o.childrenOf(kind) {
		labels = append(labels, quoteLabel(ch.label))
	}
	msg := "there are none"
	if len(labels) > 0 {
		msg = "there are: " + joinMax(labels, 12)
	}
	arg := e.Args[0]
	return errAt(arg, "no %s %s in %s%s; %s", kind, lang.Excerpt(quoteLabel(label)), o.path(), lang.DidYouMean(label, labels), msg)
}

// endField finds processornumber(i) or processortype(i) of a Parasol I link.
func endField(o *object, list, label string, e *lang.Call) (*field, *lang.Diagnostic) {
	i := -1
	for k := range o.ends {
		if labelOf(lang.Num(float64(k))) == label {
			i = k
		}
	}
	if i < 0 {
		return nil, errAt(e.Args[0], "link %s connects %d processors, numbered 0 to %d", o.label, len(o.ends), len(o.ends)-1)
	}
	ep := o.ends[i]
	f := ep.number
	if list == "processortype" {
		f = ep.typ
	}
	if f == nil {
		return nil, lang.Errorf(e.Pos, "link %s does not give %s %d", o.label, list, i)
	}
	return f, nil
}

// topology resolves what builds a topology: the generator and its
// arguments, the link template, and the link, node, for and if statements.
func (r *resolver) topology(o *object) {
	sc := &rscope{obj: o}
	if g := o.gen; g != nil {
		r.generator(g, sc)
	}
	if t := o.template; t != nil {
		inner := &rscope{obj: o, parent: sc}
		for _, p := range t.Params {
			inner.locals = append(inner.locals, p.Name)
		}
		r.linkBody(t.Body, inner, "link template")
	}
	for _, s := range o.stmts {
		r.stmt(s.stmt, sc)
	}
}

func (r *resolver) generator(g *lang.Call, sc *rscope) {
	id, ok := g.Fn.(*lang.Ident)
	var gen registry.Generator
	found := false
	if ok {
		gen, found = registry.LookupGenerator(id.Name)
	}
	for i, a := range g.Args {
		if _, ok := generatorWord(gen, i, a); ok {
			continue // a word the generator takes, not a name
		}
		if id, isID := a.(*lang.Ident); isID && gen.Words != nil && i == gen.MaxArgs-1 && !r.namesValue(a, sc) {
			*r.errs = append(*r.errs, errAt(a, "unknown %s argument %s%s; it is one of %s (or a number: 0, 1, …)", gen.Name, lang.Excerpt(id.Name), lang.DidYouMean(id.Name, gen.Words), strings.Join(gen.Words, ", ")))
			continue
		}
		r.expr(a, sc)
	}
	if !ok {
		*r.errs = append(*r.errs, errAt(g.Fn, "expected a generator name such as hypercube"))
		return
	}
	if !found {
		*r.errs = append(*r.errs, errAt(id, "unknown topology generator %s%s; the generators are %s", lang.Excerpt(id.Name), lang.DidYouMean(id.Name, registry.GeneratorNames()), strings.Join(registry.GeneratorNames(), ", ")))
		return
	}
	if n := len(g.Args); n < gen.MinArgs || n > gen.MaxArgs {
		*r.errs = append(*r.errs, lang.Errorf(g.Pos, "%s takes %s, got %d argument%s", gen.Name, gen.Signature, n, plural(n)).Span(lang.End(g)))
	}
}

// generatorWord is the index of argument i of a generator call when it is
// one of the words the generator takes there (dragonfly's arrangement) and
// no name of the machine's: `dragonfly(2, 4, 2, 9, relative)`.
func generatorWord(gen registry.Generator, i int, a lang.Expr) (int, bool) {
	id, ok := a.(*lang.Ident)
	if !ok || gen.Words == nil || i != gen.MaxArgs-1 {
		return 0, false
	}
	j := slices.Index(gen.Words, id.Name)
	return j, j >= 0
}

// linkFields are what a link statement or template may set.
var linkFields = []string{"latency", "speed", "channels", "io", "dim"}

// linkBody resolves the fields of a link statement or template.
func (r *resolver) linkBody(body []lang.Stmt, sc *rscope, what string) {
	for _, s := range body {
		f, ok := s.(*lang.Field)
		switch {
		case !ok:
			*r.errs = append(*r.errs, lang.Errorf(s.StmtPos(), "a %s holds only fields: %s", what, strings.Join(linkFields, ", ")))
			continue
		case f.IsFunc():
			*r.errs = append(*r.errs, lang.Errorf(f.Pos, "%s(…) is a function; a %s holds only fields: %s", lang.Excerpt(f.Name), what, strings.Join(linkFields, ", ")).Span(nameEnd(f.Pos, f.Name)))
			continue
		case !linkField(f.Name):
			*r.errs = append(*r.errs, lang.Errorf(f.Pos, "unknown field %s in a %s%s; it holds %s", lang.Excerpt(quoteField(f.Name)), what, lang.DidYouMean(f.Name, linkFields), strings.Join(linkFields, ", ")).Span(nameEnd(f.Pos, f.Name)))
			continue
		}
		spec, _ := fieldSpecOf("link", canonicalLink(f.Name))
		r.value(f.Value, sc, spec, f.Name, false)
	}
}

func (r *resolver) stmt(s lang.Stmt, sc *rscope) {
	switch s := s.(type) {
	case *lang.Node:
		r.expr(s.From, sc)
		if s.To != nil {
			r.expr(s.To, sc)
		}
		if r.m.nodeType(s.Type) == nil {
			d := lang.Errorf(s.TypePos, "no processor or switch %s%s", lang.Excerpt(quoteLabel(s.Type)), lang.DidYouMean(s.Type, r.m.nodeTypeLabels()))
			*r.errs = append(*r.errs, d.Span(nameEnd(s.TypePos, s.Type)))
		}
	case *lang.Link:
		for _, e := range s.Ends {
			r.expr(e, sc)
		}
		what := "link"
		if s.Bus {
			what = "bus"
		}
		r.linkBody(s.Body, sc, what)
	case *lang.For:
		r.expr(s.From, sc)
		r.expr(s.To, sc)
		inner := &rscope{obj: sc.obj, locals: []string{s.Var}, parent: sc}
		for _, b := range s.Body {
			r.stmt(b, inner)
		}
	case *lang.If:
		r.expr(s.Cond, sc)
		for _, b := range s.Then {
			r.stmt(b, sc)
		}
		for _, b := range s.Else {
			r.stmt(b, sc)
		}
	}
}
