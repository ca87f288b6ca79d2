package eval

import (
	"sort"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// object is one block of a machine: the machine itself, a processor, a
// topology, a link, a model section, a timing subsection. Fields keep their
// syntax; they are evaluated on first use and the value is kept.
type object struct {
	kind, label string
	pos         lang.Pos
	parent      *object
	// The fields in declaration order (fieldNames lists their names), and
	// an index by name once they are more than a few (most blocks have a
	// few fields, and a Parasol I file has a block per link).
	fields   []*field
	index    map[string]*field
	children []*object
	byKey    map[string]*childIndex // by kind

	// Topology only: the statements that build its links and nodes, the
	// generator and link template, expanded by topology.go.
	gen            *lang.Call
	template       *lang.Block
	stmts          []stmtIn
	templateLayer  int32
	templateLegacy bool

	// Declared in a Parasol I file: plain numbers take implied units.
	// (Beside the small members above, to share their word.)
	legacy bool
	// Parasol I link only: its endpoints, in order.
	ends []endpoint
}

// stmtIn is a statement with the object it was declared in, which can
// differ from where it lands when a machine extends another.
type stmtIn struct {
	stmt lang.Stmt
	obj  *object
}

type endpoint struct {
	typ, number *field
}

func newObject(kind, label string, pos lang.Pos, parent *object) *object {
	return &object{kind: kind, label: label, pos: pos, parent: parent}
}

// indexAbove is the number of fields an object finds by scanning; more are
// indexed by name.
const indexAbove = 8

// get returns the field named name, or nil.
func (o *object) get(name string) *field {
	if o.index != nil {
		return o.index[name]
	}
	for _, f := range o.fields {
		if f.name == name {
			return f
		}
	}
	return nil
}

// add appends a field not yet in o.
func (o *object) add(f *field) {
	o.fields = append(o.fields, f)
	switch {
	case o.index != nil:
		o.index[f.name] = f
	case len(o.fields) > indexAbove:
		o.index = make(map[string]*field, 2*len(o.fields))
		for _, g := range o.fields {
			o.index[g.name] = g
		}
	}
}

// path describes the object in reference syntax: processor(1).float_timings.
func (o *object) path() string {
	if o.parent == nil {
		return "machine " + strconv.Quote(o.label)
	}
	var parts []string
	for ; o.parent != nil; o = o.parent {
		switch {
		case o.kind == "modelsection":
			parts = append(parts, o.label)
		case o.label != "":
			parts = append(parts, o.kind+"("+quoteLabel(o.label)+")")
		default:
			parts = append(parts, o.kind)
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

func quoteLabel(l string) string {
	if isNumeric(l) || lang.IsIdent(l) {
		return l
	}
	return `"` + l + `"`
}

func isNumeric(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' && r != '-' && r != 'e' && r != '+' {
			return false
		}
	}
	return true
}

func (o *object) child(kind, label string) *object { return o.byKey[kind].get(label) }

// addChild adds c, the first child of its kind and label.
func (o *object) addChild(c *object) {
	o.children = append(o.children, c)
	o.kindIndex(c.kind).add(c, len(o.children))
}

// kindIndex is the index of o's children of one kind.
func (o *object) kindIndex(kind string) *childIndex {
	if o.byKey == nil {
		o.byKey = map[string]*childIndex{}
	}
	ix := o.byKey[kind]
	if ix == nil {
		ix = &childIndex{}
		o.byKey[kind] = ix
	}
	return ix
}

// childIndex finds the children of one kind by label: those numbered 0,
// 1, 2, … (as the links of a Parasol I topology are, by the hundred
// thousand) in a slice, the others in a map. A child is in one of the two;
// the slice is looked at first.
type childIndex struct {
	numbered []*object
	named    map[string]*object
}

func (ix *childIndex) get(label string) *object {
	if ix == nil {
		return nil
	}
	if n, ok := labelNumber(label); ok && n < len(ix.numbered) && ix.numbered[n] != nil {
		return ix.numbered[n]
	}
	return ix.named[label]
}

// add adds c, the n-th child of its parent; the slice grows to about
// twice the children, so that a few large numbers take the map.
func (ix *childIndex) add(c *object, n int) {
	if k, ok := labelNumber(c.label); ok && k < 2*n+1024 {
		if k >= len(ix.numbered) {
			grown := make([]*object, max(k+1, min(2*len(ix.numbered), 2*n+1024)))
			copy(grown, ix.numbered)
			ix.numbered = grown
		}
		ix.numbered[k] = c
		return
	}
	if ix.named == nil {
		ix.named = map[string]*object{}
	}
	ix.named[c.label] = c
}

// labelNumber reads a label written as a whole number in its canonical
// form (0, 17; not 017 or +1), below a billion.
func labelNumber(label string) (int, bool) {
	if label == "" || len(label) > 9 || label[0] == '0' && len(label) > 1 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(label); i++ {
		c := label[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// childrenOf lists the children of one kind, in declaration order.
func (o *object) childrenOf(kind string) []*object {
	n := 0
	for _, c := range o.children {
		if c.kind == kind {
			n++
		}
	}
	if n == len(o.children) {
		// A topology's children are all links, by the hundred thousand in
		// a large file: they are shared, and cannot be appended to.
		return o.children[:n:n]
	}
	out := make([]*object, 0, n)
	for _, c := range o.children {
		if c.kind == kind {
			out = append(out, c)
		}
	}
	return out
}

// field returns a field by name, following Parasol I link aliases.
func (o *object) field(name string) *field {
	if f := o.get(name); f != nil {
		return f
	}
	if strings.Contains(name, "_") { // fp_type for Parasol I's "fp type"
		if f := o.get(strings.ReplaceAll(name, "_", " ")); f != nil {
			return f
		}
	}
	if o.kind == "link" {
		if other := linkAlias(name); other != "" {
			return o.get(other)
		}
	}
	return nil
}

// fieldNames lists the names of o's fields in declaration order. Made
// when asked (for messages) rather than kept: a file has a block per link.
func (o *object) fieldNames() []string {
	out := make([]string, len(o.fields))
	for i, f := range o.fields {
		out[i] = f.name
	}
	return out
}

// names lists what can follow a dot on this object, for suggestions and
// completion.
func (o *object) names() []string {
	out := o.fieldNames()
	seen := map[string]bool{}
	for _, c := range o.children {
		n := c.kind
		if c.kind == "modelsection" {
			n = c.label
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// field is a value or function of an object.
type field struct {
	name string
	obj  *object
	decl *lang.Field
	// The small members share a word: a file has a field per line.
	layer   int32 // which machine in an extends chain (or override) set it
	isParam bool  // a name of the user's own: a param, or defined at the REPL
	legacy  bool  // declared in a Parasol I file
	state   fieldState
	val     lang.Value
	rare    *fieldRare // nil for a value that evaluated without error
}

// fieldRare is what few fields have, kept apart so that the many plain
// values of a large file take a cache line each.
type fieldRare struct {
	over *lang.Field // the declaration a --set value replaced (checkOverride)
	err  error
	fn   *function
}

func (f *field) more() *fieldRare {
	if f.rare == nil {
		f.rare = &fieldRare{}
	}
	return f.rare
}

// failure is the error evaluating or compiling the field gave, if any.
func (f *field) failure() error {
	if f.rare == nil {
		return nil
	}
	return f.rare.err
}

func (f *field) setFailure(err error) {
	if err != nil || f.rare != nil {
		f.more().err = err
	}
}

// overridden is the declaration a --set value replaced, or nil.
func (f *field) overridden() *lang.Field {
	if f.rare == nil {
		return nil
	}
	return f.rare.over
}

// compiled is the field's function once compiled, or nil.
func (f *field) compiled() *function {
	if f.rare == nil {
		return nil
	}
	return f.rare.fn
}

type fieldState uint8

const (
	unevaluated fieldState = iota
	evaluating
	evaluated
)

// pos is where the field is declared.
func (f *field) pos() lang.Pos { return f.decl.Pos }

// path describes the field in reference syntax.
func (f *field) path() string {
	name := f.name
	if !lang.IsIdent(name) {
		name = strconv.Quote(name) // processor(1)."fp type"
	}
	if f.obj.parent == nil {
		return name
	}
	return f.obj.path() + "." + name
}

// function is a compiled user function.
type function struct {
	f      *field
	params []*lang.Param
	body   code
	nslots int
	// legacyNs: a Parasol I model section primitive; a plain-number result
	// is a time in nanoseconds.
	legacyNs bool
	// conversion of plain-number arguments for parameters with units
	scale []float64
	dims  []lang.Dim
	units []bool
}
