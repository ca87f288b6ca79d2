package eval

import "github.com/parasol-lang/parasol/lang"

// CheckWith is Check that also returns warnings and lets the caller look at
// each machine that loads: `parasol check` builds the simulator's network
// of every topology with it (the runtime imports eval, so eval cannot do
// that itself) and reports what the simulator would reject. It returns the
// machines' names and every diagnostic, errors and warnings, in source
// order; inspect is called only for machines without errors.
func CheckWith(spec string, inspect func(*Machine) lang.Diagnostics, opts ...Option) ([]string, lang.Diagnostics) {
	l := newLoader(opts)
	f := l.readSpec(spec, lang.Pos{})
	if f == nil || len(l.errs) > 0 {
		return nil, sorted(l.errs)
	}
	names := l.namesIn(f)
	var ds lang.Diagnostics
	for _, n := range names {
		m, err := assemble(l, n)
		if err != nil {
			ds.Append(err)
			continue
		}
		ds = append(ds, m.warns...)
		ds.Append(m.checkPrograms(l.programsOf(f)))
		if inspect != nil {
			ds = append(ds, inspect(m)...)
		}
	}
	ds = append(ds, l.checkProgramsAlone(f, names)...)
	return names, sorted(ds)
}

// sorted orders diagnostics by position and drops exact repeats (a shared
// import's problem is reported once, however many machines share it).
func sorted(ds lang.Diagnostics) lang.Diagnostics {
	if err := ds.Err(); err != nil {
		return err.(lang.Diagnostics)
	}
	return nil
}

// Where is the source range of a topology field's value, such as routing
// or switching, for diagnostics about it; set reports whether the topology
// (or one it extends) gives the field. When it does not, the range is the
// topology's declaration.
func (t *Topology) Where(name string) (start, end lang.Pos, set bool) {
	if f := t.obj.field(name); f != nil && f.decl.Value != nil && f.decl.Value.ExprPos().IsValid() {
		return lang.Start(f.decl.Value), lang.End(f.decl.Value), true
	}
	return t.obj.pos, lang.Pos{}, false
}
