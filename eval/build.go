package eval

import (
	"strings"

	"github.com/parasol-lang/parasol/internal/slab"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// build assembles the object tree of a machine: its base machines first
// (extends), then its own statements, then the overrides, each a layer that
// may replace the values of the layers below. Values are not evaluated here.
func build(l *loader, name string) (*Machine, error) {
	m, err := assemble(l, name)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// assemble builds, resolves and evaluates a machine. On errors it returns
// them with the machine as far as it got: its warnings are still of use.
func assemble(l *loader, name string) (*Machine, error) {
	m := &Machine{name: name, loader: l, res: newResolution(nil)}
	b := &builder{m: m, errs: &m.errs}
	decl := l.machines[name]
	m.root = newObject("machine", name, decl.ast.Pos, nil)
	b.machine(decl, nil, 0)
	// What is typed at the REPL defines names of the user's own.
	b.own = true
	for _, extra := range l.opts.extra.layers() {
		b.layer++
		b.apply(m.root, extra, false)
	}
	b.own = false
	if len(m.errs) == 0 {
		b.overrides(l.opts.sets, b.layer+1)
	}
	if len(m.errs) == 0 {
		if err := m.checkTopologyChosen(); err != nil {
			return m, err
		}
	}
	if len(m.errs) == 0 {
		m.resolveAll()
		// Fields whose names resolved are evaluated even when others did
		// not, so that every error is reported at once.
		m.evaluateAll()
	}
	if len(m.errs) > 0 && len(l.opts.sets) > 0 {
		m.noteSets()
	}
	if len(m.errs) == 0 {
		m.warnings()
	}
	return m, m.errs.Err()
}

type builder struct {
	m     *Machine
	errs  *lang.Diagnostics
	layer int32
	own   bool // fields at machine level are the user's own (REPL definitions)

	// Slabs (slab.go) for the records of fields and blocks.
	fieldSlab  []field
	objectSlab []object
	linkSlab   []linkRecords
	// The records of the link block being applied, for its fields
	// (newField), when it is held in one piece.
	linkFields []field
	fieldPtrs  []*field
	ends       []endpoint
}

// machine applies a machine declaration and, first, what it extends.
func (b *builder) machine(d *machineDecl, chain []string, _ int) {
	for _, c := range chain {
		if c == d.ast.Name {
			b.errs.Add(d.ast.ExtendsPos, "machine %q extends itself: %s → %s", d.ast.Name, strings.Join(chain, " → "), d.ast.Name)
			return
		}
	}
	chain = append(chain, d.ast.Name)
	if d.ast.Extends != "" {
		base := b.m.loader.machines[d.ast.Extends]
		if base == nil {
			var names []string
			for n := range b.m.loader.machines {
				names = append(names, n)
			}
			b.errs.Add(d.ast.ExtendsPos, "machine %q extends unknown machine %q%s", d.ast.Name, d.ast.Extends, lang.DidYouMean(d.ast.Extends, names))
			return
		}
		b.machine(base, chain, 0)
		b.layer++
	}
	b.apply(b.m.root, b.m.loader.shared[d.file], d.file.Legacy)
	b.layer++
	b.apply(b.m.root, d.ast.Body, d.file.Legacy)
	b.m.legacy = b.m.legacy || d.file.Legacy
}

// isProcessorType matches processortype0, processortype1, ….
func isProcessorType(name string) bool { return endKind(name) == endType }

// Which end of a Parasol I link a field of it gives, if any.
const (
	notAnEnd  = iota
	endType   // processortypeK
	endNumber // processornumber
)

// endKind tells a Parasol I link's endpoint fields (processortypeK,
// processornumber) from its other fields, most of which it passes over
// after a comparison of their first bytes.
func endKind(name string) int {
	const p = "processor"
	if len(name) < len("processortype0") || name[:len(p)] != p {
		return notAnEnd
	}
	switch rest := name[len(p):]; {
	case rest == "number":
		return endNumber
	case rest[:4] == "type" && isDigits(rest[4:]):
		return endType
	}
	return notAnEnd
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (b *builder) apply(obj *object, stmts []lang.Stmt, legacy bool) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *lang.Field:
			b.field(obj, s, legacy)
		case *lang.Block:
			b.block(obj, s, legacy)
		case *lang.Link, *lang.Node, *lang.For, *lang.If:
			if obj.kind != "topology" {
				b.errs.Add(s.StmtPos(), "%s statements belong in a topology block, not in %s", stmtName(s), obj.path())
				continue
			}
			obj.stmts = append(obj.stmts, stmtIn{s, obj})
		case *lang.Machine:
			b.errs.Add(s.Pos, "a machine cannot be declared inside %s", obj.path())
		case *lang.Import:
			b.errs.Add(s.Pos, "import belongs at the top of a file")
		}
	}
}

func stmtName(s lang.Stmt) string {
	switch s := s.(type) {
	case *lang.Link:
		if s.Bus {
			return "bus"
		}
		return "link"
	case *lang.Node:
		return "node"
	case *lang.For:
		return "for"
	}
	return "if"
}

func (b *builder) field(obj *object, s *lang.Field, legacy bool) {
	if obj.kind == "link" && endKind(s.Name) != notAnEnd {
		b.endpoint(obj, s)
		return
	}
	if prev := obj.get(s.Name); prev != nil {
		if prev.layer == b.layer {
			d := b.errs.Add(s.Pos, "%s is defined twice in %s", s.Name, obj.path())
			d.Notes = append(d.Notes, lang.Note{Pos: prev.decl.Pos, Msg: "first defined here"})
			return
		}
		if prev.decl.IsFunc() != s.IsFunc() {
			b.errs.Add(s.Pos, "%s overrides a %s with a %s", s.Name, funcOrValue(prev.decl), funcOrValue(s))
			return
		}
		prev.decl, prev.layer, prev.legacy = s, b.layer, legacy
		prev.isParam = prev.isParam || s.IsParam
		return
	}
	if obj.kind != "machine" && obj.kind != "modelsection" && s.IsParam {
		b.errs.Add(s.Pos, "param declarations belong at machine level, not in %s", obj.path())
		return
	}
	own := s.IsParam || b.own && obj.kind == "machine"
	f := b.newField() // set field by field, as in endpoint
	f.name, f.obj, f.decl, f.layer, f.isParam, f.legacy = s.Name, obj, s, b.layer, own, legacy
	obj.add(f)
}

func funcOrValue(f *lang.Field) string {
	if f.IsFunc() {
		return "function"
	}
	return "value"
}

// endpoint collects a Parasol I link's processortypeK / processornumber
// pairs, which repeat positionally.
func (b *builder) endpoint(obj *object, s *lang.Field) {
	// Set field by field: the slab is zeroed, and a whole-struct copy
	// would pay the garbage collector's barrier for every word.
	f := b.newField()
	f.name, f.obj, f.decl, f.layer, f.legacy = s.Name, obj, s, b.layer, true
	if s.Name == "processornumber" {
		if n := len(obj.ends); n > 0 && obj.ends[n-1].number == nil {
			obj.ends[n-1].number = f
			return
		}
		obj.ends = append(obj.ends, endpoint{number: f})
		return
	}
	obj.ends = append(obj.ends, endpoint{typ: f})
}

func (b *builder) block(obj *object, s *lang.Block, legacy bool) {
	if !knownKind(s.Kind) {
		b.errs.Add(s.Pos, "unknown block %q in %s%s", s.Kind, obj.path(), lang.DidYouMean(s.Kind, blockKinds))
		return
	}
	if want := parentKind(s.Kind); want != obj.kind && !(want == "processor" && obj.kind == "switch") {
		b.errs.Add(s.Pos, "a %s block belongs in %s, not in %s", s.Kind, article(want), obj.path())
		return
	}
	if s.Kind == "link" && s.Label == "" {
		if obj.template != nil && obj.templateLayer == b.layer {
			b.errs.Add(s.Pos, "%s has two link templates", obj.path())
			return
		}
		if len(s.Params) > 3 {
			b.errs.Add(s.Pos, "a link template takes at most three parameters: (dimension, source, destination)")
			return
		}
		obj.template = s
		obj.templateLegacy = legacy
		obj.templateLayer = b.layer
		return
	}
	if s.Kind == "modelsection" && s.Label == "" {
		b.errs.Add(s.Pos, "a model section needs a name: modelsection PVM { … }")
		return
	}
	c := obj.child(s.Kind, s.Label)
	if c == nil {
		c = b.newObject(s)
		c.kind, c.label, c.pos, c.parent = s.Kind, s.Label, s.Pos, obj
		obj.addChild(c)
	}
	c.legacy = c.legacy || legacy
	if s.Gen != nil {
		if s.Kind != "topology" {
			b.errs.Add(s.Gen.Pos, "only a topology takes a generator (topology t = torus(4, 4) { … })")
		}
		c.gen = s.Gen
	}
	b.apply(c, s.Body, legacy)
	b.linkFields = nil
}

// bodyCounts are the statements of a block's body by kind: fields, a
// Parasol I link's endpoint fields (processortypeK, processornumber), and
// blocks.
type bodyCounts struct{ fields, types, numbers, blocks int }

func countBody(kind string, body []lang.Stmt) (n bodyCounts) {
	link := kind == "link"
	for _, s := range body {
		f, ok := s.(*lang.Field)
		if !ok {
			if _, ok := s.(*lang.Block); ok {
				n.blocks++
			}
			continue
		}
		end := notAnEnd
		if link {
			end = endKind(f.Name)
		}
		switch end {
		case endNumber:
			n.numbers++
		case endType:
			n.types++
		default:
			n.fields++
		}
	}
	return n
}

// newObject makes the object of a new block, with room for the fields and
// Parasol I link endpoints its body declares. A link block whose fields
// fit is held in one piece with its fields' records (linkRecords), which
// newField then hands out while its body is applied.
func (b *builder) newObject(s *lang.Block) *object {
	n := countBody(s.Kind, s.Body)
	ends := max(n.types, n.numbers)
	records := n.fields + n.types + n.numbers
	// A link of a few fields is left to the slabs: its piece would be
	// mostly room it does not use.
	if s.Kind == "link" && n.fields <= len(linkRecords{}.ptrs) && ends <= len(linkRecords{}.ends) &&
		records <= len(linkRecords{}.fields) && records >= minLinkRecords {
		r := slab.Take(&b.linkSlab, linkChunk)
		if n.fields > 0 {
			r.obj.fields = r.ptrs[:0:n.fields]
		}
		if ends > 0 {
			r.obj.ends = r.ends[:0:ends]
		}
		b.linkFields = r.fields[:0:records]
		return &r.obj
	}
	o := take(&b.objectSlab) // set field by field, as in endpoint
	if n.fields <= indexAbove {
		o.fields = room(&b.fieldPtrs, n.fields)
	}
	o.ends = room(&b.ends, ends)
	// A topology of a large file holds a block per link: its list of them
	// is made at its size, not grown by copies. (Small blocks' lists stay
	// as appends make them, most holding none.)
	if n.blocks > slabChunk {
		o.children = make([]*object, 0, n.blocks)
	}
	return o
}

// newField returns a zero field record: one of the current link block's
// own while they last, else one from the slab.
func (b *builder) newField() *field {
	if n := len(b.linkFields); n < cap(b.linkFields) {
		b.linkFields = b.linkFields[:n+1]
		return &b.linkFields[n]
	}
	return take(&b.fieldSlab)
}

// parentKind says where each kind of block may stand.
func parentKind(kind string) string {
	switch kind {
	case "link":
		return "topology"
	case "integer_timings", "long_integer_timings", "float_timings", "double_timings", "processorcache", "combinations":
		return "processor"
	}
	return "machine"
}

func article(kind string) string {
	if kind == "machine" {
		return "a machine"
	}
	return "a " + kind
}

// overrides applies --set values as the top layer. Each is parsed as text
// of its own named after the flag and its value ("--set delta=2us"), so an
// error in it points there and not into the machine.
func (b *builder) overrides(sets []Set, layer int32) {
	b.layer = layer
	for _, s := range sets {
		flag := s.Source
		if flag == "" {
			flag = "--set"
		}
		name := flag + " " + s.Path + "=" + s.Value
		target, err := parser.ParseExpr(name, s.Path)
		if err != nil {
			b.errs.Append(err)
			continue
		}
		value, err := parser.ParseExpr(name, s.Value)
		if err != nil {
			b.errs.Append(err)
			continue
		}
		f, err := b.m.findField(target)
		if err != nil {
			// A known field the file does not set can be added:
			// --set 'topology(t).arbitration=roundrobin'.
			if f = b.m.newSchemaField(target, layer); f == nil {
				b.errs.Append(unwrapDep(err))
				continue
			}
		}
		if f.overridden() == nil && f.decl.Value != nil {
			f.more().over = f.decl
		}
		f.decl = &lang.Field{Pos: value.ExprPos(), Name: f.name, Value: value, Params: f.decl.Params}
		f.layer, f.legacy = layer, false
	}
}

// checkOverride holds a --set value to the kind of value the field had:
// a time stays a time, a name a name. Otherwise the error would surface in
// whatever depends on the field, at a line of the machine the user did not
// write.
func (m *Machine) checkOverride(f *field, v lang.Value) error {
	// Kept small enough to be inlined where every field is evaluated:
	// few fields are overridden.
	if f.rare == nil || f.rare.over == nil || f.legacy {
		return nil
	}
	return m.checkOverridden(f, v)
}

// checkOverridden is checkOverride of a field a --set value replaced.
func (m *Machine) checkOverridden(f *field, v lang.Value) error {
	over := f.overridden()
	if _, known := fieldSpecOf(f.obj.kind, f.name); known && !blocks[f.obj.kind].own {
		return nil // the schema has checked it
	}
	res := newResolution(m.res)
	var errs lang.Diagnostics
	r := &resolver{m: m, res: res, errs: &errs}
	r.value(over.Value, &rscope{obj: f.obj}, fieldSpec{}, f.name, false)
	if len(errs) > 0 {
		return nil
	}
	was, err := m.evalResolved(over.Value, f.obj, res)
	if err != nil || was.Kind == v.Kind && was.Dim == v.Dim {
		return nil
	}
	return errAt(f.decl.Value, "%s is a %s in the machine (%s), got a %s", f.path(), typeName(was), was, typeName(v))
}

func typeName(v lang.Value) string {
	if v.Kind == lang.Number {
		return v.Dim.Name()
	}
	return v.Kind.String()
}

// newSchemaField adds the field a path names when its block exists and the
// schema knows the field for that kind of block.
func (m *Machine) newSchemaField(e lang.Expr, layer int32) *field {
	sel, ok := e.(*lang.Select)
	if !ok {
		return nil
	}
	res, err := m.resolveQuery(sel.X, m.root)
	if err != nil {
		return nil
	}
	t, err := (&compiler{m: m, res: res}).target(sel.X, &scope{obj: m.root})
	if err != nil || t.obj == nil || t.kind != "" || t.end != "" {
		return nil
	}
	obj, name := t.obj, sel.Name
	if spec, known := fieldSpecOf(obj.kind, name); !known || blocks[obj.kind].own && spec.typ == tAny {
		return nil
	}
	f := &field{name: name, obj: obj, layer: layer, decl: &lang.Field{Pos: e.ExprPos(), Name: name, Value: &lang.NumberLit{}}}
	obj.add(f)
	return f
}

// findField resolves a reference path (processor(1).createjob, delta) to the
// field it names, for overrides.
func (m *Machine) findField(e lang.Expr) (*field, error) {
	res, err := m.resolveQuery(e, m.root)
	if err != nil {
		return nil, err
	}
	t, err := (&compiler{m: m, res: res}).target(e, &scope{obj: m.root})
	if err != nil {
		return nil, err
	}
	if t.fld == nil {
		return nil, lang.Errorf(e.ExprPos(), "%s is not a field", format.Expr(e))
	}
	return t.fld, nil
}
