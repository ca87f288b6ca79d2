package eval

import (
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
)

// Warnings point at values that are legal but suspicious: the machine
// loads and runs, but probably not as its author meant. `parasol check`
// prints them; they do not fail a load.

// Warnings lists the machine's warnings, in source order.
func (m *Machine) Warnings() lang.Diagnostics {
	ds := append(lang.Diagnostics(nil), m.warns...)
	if err := ds.Err(); err != nil {
		return err.(lang.Diagnostics)
	}
	return nil
}

// warnings collects the warnings of a machine that loaded without errors.
func (m *Machine) warnings() {
	for _, t := range m.topos {
		m.warnNumLinks(t)
		m.warnUntakenDefaults(t)
		m.warnUnusedSwitch(t)
	}
}

// warnUnusedSwitch: a topology's switch field types the switches a
// generator makes (a switched kind's, star(n)'s hub); a topology with no
// switches from its generator takes nothing from it.
func (m *Machine) warnUnusedSwitch(t *Topology) {
	f := t.obj.field("switch")
	if f == nil || f.decl.IsFunc() || f.failure() != nil || t.obj.gen != nil && t.Graph.NumProcs() < t.Graph.N() {
		return
	}
	none := "this topology is given link by link (node statements type its nodes)"
	if t.obj.gen != nil {
		none = format.Expr(t.obj.gen) + " makes none"
	}
	d := lang.Warningf(lang.Start(f.decl.Value), "switch = %s types the switches a generator makes, and %s", f.val.Text(), none)
	m.warns = append(m.warns, d.Span(lang.End(f.decl.Value)))
}

// warnNumLinks: a Parasol I topology states its number of links, which
// the links given should bear out.
func (m *Machine) warnNumLinks(t *Topology) {
	f := t.obj.field("num_links")
	if f == nil || f.decl.IsFunc() || f.failure() != nil || f.val.Kind != lang.Number {
		return
	}
	if n := t.Graph.NumLinks(); f.val.Num != float64(n) {
		d := lang.Warningf(lang.Start(f.decl.Value), "num_links = %s, but topology %s has %d link%s", lang.FormatNumber(f.val.Num), quoteLabel(t.Label), n, plural(n))
		m.warns = append(m.warns, d.Span(lang.End(f.decl.Value)))
	}
}
