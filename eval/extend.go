package eval

import (
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// The REPL adds its definitions one entry at a time, each by Extend. A
// rebuild of the whole machine per entry made a session of n definitions
// quadratic in n (8,000 params took over a minute). Most entries only add
// names: a new param, value or function that nothing already defined
// refers to. Such a layer is compiled alone into the scope of the machine
// it extends, which is shared, not copied: its fields, its resolution, its
// topologies. What the layer adds is kept beside the shared root in
// structures that grow without copying what they hold (a list of the
// layers' fields, and maps in layers merged as a binary counter merges its
// digits, so that n names take O(log n) maps and each name is copied
// O(log n) times). A layer that replaces a name, or whose names something
// already refers to (an index such as diameter that a new param would
// shadow, a word that a field takes as a name), is built again whole, as
// is one with an error, so that its message is the rebuild's.

// defLayer is one Extend's statements, above the layers before it.
type defLayer struct {
	stmts []lang.Stmt
	below *defLayer
}

// layers lists the definitions oldest first.
func (d *defLayer) layers() [][]lang.Stmt {
	var out [][]lang.Stmt
	for ; d != nil; d = d.below {
		out = append(out, d.stmts)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// layeredMap is an immutable map in layers, the newest on top: a machine
// extended from another shares the other's layers and adds its own.
type layeredMap[K comparable, V any] struct {
	m     map[K]V
	below *layeredMap[K, V]
}

// get returns k's value, or the zero value when no layer holds k.
func (l *layeredMap[K, V]) get(k K) V {
	for ; l != nil; l = l.below {
		if v, ok := l.m[k]; ok {
			return v
		}
	}
	var zero V
	return zero
}

// push returns l with m on top (m is its own from then on). A layer no
// larger than the one above it is merged into a new map with it, as the
// digits of a binary counter carry.
func (l *layeredMap[K, V]) push(m map[K]V) *layeredMap[K, V] {
	if len(m) == 0 {
		return l
	}
	top := &layeredMap[K, V]{m: m, below: l}
	for top.below != nil && len(top.below.m) <= len(top.m) {
		b := top.below
		merged := make(map[K]V, len(b.m)+len(top.m))
		for k, v := range b.m {
			merged[k] = v
		}
		for k, v := range top.m {
			merged[k] = v
		}
		top = &layeredMap[K, V]{m: merged, below: b.below}
	}
	return top
}

// ownFields are the machine-level definitions that extensions added
// beside the shared root, by name and in order.
type ownFields struct {
	byName *layeredMap[string, *field]
	list   []*field // in declaration order, a prefix of it shared with the machine extended
}

// rootField is the machine-level field named name: the root's, or one an
// extension added.
func (m *Machine) rootField(name string) *field {
	if f := m.root.field(name); f != nil {
		return f
	}
	return m.own.byName.get(name)
}

// rootFields are the machine-level fields in declaration order.
func (m *Machine) rootFields() []*field {
	if len(m.own.list) == 0 {
		return m.root.fields
	}
	return append(append([]*field(nil), m.root.fields...), m.own.list...)
}

// Extend makes a machine with more definitions, as typed at the REPL: each
// call adds a layer that may redefine earlier values.
func (m *Machine) Extend(stmts []lang.Stmt) (*Machine, error) {
	l := *m.loader
	l.opts.extra = &defLayer{stmts: stmts, below: m.loader.opts.extra}
	if x := m.extendAlone(&l, stmts); x != nil {
		return x, nil
	}
	return build(&l, m.name)
}

// extendAlone compiles a layer that only adds names into the machine's
// scope, or returns nil when the layer needs the machine rebuilt.
func (m *Machine) extendAlone(l *loader, stmts []lang.Stmt) *Machine {
	if len(m.errs) > 0 {
		return nil
	}
	var decls []*lang.Field
	for _, s := range stmts {
		switch s := s.(type) {
		case *lang.Field:
			decls = append(decls, s)
		case *lang.Program:
			// Read from the layers when asked for (programs).
		default:
			return nil
		}
	}
	names := make(map[string]*field, len(decls))
	for _, d := range decls {
		if names[d.Name] != nil || m.rootField(d.Name) != nil || m.refersTo(d.Name) {
			return nil
		}
		// A name such as fp_type also finds a field "fp type".
		if strings.Contains(d.Name, "_") && m.root.get(strings.ReplaceAll(d.Name, "_", " ")) != nil {
			return nil
		}
		names[d.Name] = &field{name: d.Name, obj: m.root, decl: d, isParam: true}
	}
	x := &Machine{name: m.name, loader: l, root: m.root, legacy: m.legacy, warns: m.warns,
		topos: m.topos, topoState: m.topoState, res: newResolution(m.res)}
	// The first extension of m appends to m's list in place, beyond what m
	// sees; the others, to copies, so that none writes where another reads.
	list := m.own.list
	if !m.ownAppended.CompareAndSwap(false, true) {
		list = list[:len(list):len(list)]
	}
	for _, d := range decls {
		list = append(list, names[d.Name])
	}
	x.own = ownFields{byName: m.own.byName.push(names), list: list}
	free := map[string]bool{}
	r := &resolver{m: x, res: x.res, errs: &x.errs, free: free}
	sc := &rscope{obj: m.root}
	for _, f := range list[len(m.own.list):] {
		r.field(f, sc)
	}
	if len(x.errs) > 0 {
		return nil
	}
	for _, f := range list[len(m.own.list):] {
		var err error
		if f.decl.IsFunc() {
			_, err = x.function(f)
		} else {
			_, err = x.value(f, lang.Pos{})
		}
		if err != nil {
			return nil
		}
	}
	x.res = m.res.push(x.res.m)
	x.free = m.free.push(free)
	return x
}

// refersTo says whether some name of the machine was looked for at
// machine level and found no field there (see resolver.lookup): a field of
// that name would change what it means.
func (m *Machine) refersTo(name string) bool {
	return m.free.get(name)
}
