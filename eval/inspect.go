package eval

import (
	"context"
	"fmt"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// Inspect is Check that also returns warnings and builds the simulator's
// network of every topology of every machine that loads, reporting what
// the simulator would reject (simChecks): what `parasol check` prints. It
// returns the machines' names and every diagnostic, errors and warnings,
// in source order.
func Inspect(spec string, opts ...Option) ([]string, lang.Diagnostics) {
	in, ds := InspectFile(spec, opts...)
	return in.Machines, ds
}

// An Inspection names what a file defines: its machines and its programs
// (not those of the files it imports).
type Inspection struct {
	Machines, Programs []string
}

// InspectFile is Inspect that also names the file's programs. Every
// program visible from the file is checked on each machine of the file,
// or when it has none on each machine of the files it imports; a file
// that names no machine at all has its programs checked alone (their
// statements, arguments, own names and units; what needs the machine, its
// names, processors and rank count, is left for run).
func InspectFile(spec string, opts ...Option) (Inspection, lang.Diagnostics) {
	l := newLoader(opts)
	l.opts.everyTopology = true
	f := l.readSpec(spec, lang.Pos{})
	if f == nil || len(l.errs) > 0 {
		return Inspection{}, sorted(l.errs)
	}
	names := l.namesIn(f)
	var progs []string
	for _, s := range f.Stmts {
		if p, ok := s.(*lang.Program); ok {
			progs = append(progs, p.Name)
		}
	}
	var ds lang.Diagnostics
	for _, n := range names {
		m, err := assemble(l, n)
		if err != nil {
			ds.Append(diagnosticOf(err))
			continue
		}
		ds = append(ds, m.warns...)
		ds.Append(m.checkPrograms(l.programsOf(f)))
		ds = append(ds, m.simChecks(l.opts.maxMemory)...)
	}
	ds = append(ds, l.checkProgramsAlone(f, names)...)
	return Inspection{Machines: names, Programs: progs}, sorted(ds)
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

// checkWork bounds the deadlock check of one topology (processors ×
// lanes, runtime.CheckOptions.MaxWork): about a second. A larger one is
// not checked, and Inspect says so.
const checkWork = 3e7

// simChecks builds every topology of m as the simulator does and reports,
// at the field responsible, what the simulator would reject, and as
// warnings a routing that can deadlock (under wormhole switching, or
// store and forward or virtual cut-through with finite buffers) or leaves
// processors without a route. maxMemory bounds what building a network
// may take (0: the default limit).
func (m *Machine) simChecks(maxMemory int64) lang.Diagnostics {
	var ds lang.Diagnostics
	for _, t := range m.Topologies() {
		at := func(field string, sev lang.Severity, format string, args ...any) *lang.Diagnostic {
			start, end, _ := t.Where(field)
			d := lang.Errorf(start, format, args...).Span(end)
			d.Severity = sev
			ds = append(ds, d)
			return d
		}
		spec, err := m.Spec(t.Label)
		if err != nil {
			at("", lang.Error, "topology %s: %s", t.Label, err)
			continue
		}
		g := spec.Graph
		if g.NumProcs() < 2 {
			continue // nothing to send, nothing to route
		}
		// The network the simulator would build (routing tables or rules,
		// lanes, node and link parameters) and one route through it.
		if _, err := runtime.Route(spec, g.ID(g.Proc(0)), g.ID(g.Proc(1)), runtime.RouteOptions{MaxMemory: maxMemory}); err != nil {
			at("routing", lang.Error, "topology %s: %s", t.Label, err)
			continue
		}
		// Wormhole's buffers are always finite; store and forward's and
		// virtual cut-through's when the topology sets buffer (packets).
		var how string
		switch sw, b := spec.Switching, spec.Packet.BufferFlits; {
		case sw == runtime.Wormhole:
			how = "wormhole switching"
			if _, _, set := t.Where("switching"); !set {
				how = "wormhole switching (the default; set switching = … to choose)"
			}
		case (sw == runtime.SAF || sw == runtime.VCT) && b > 0:
			name := "store-and-forward"
			if sw == runtime.VCT {
				name = "virtual cut-through"
			}
			how = fmt.Sprintf("%s switching with buffers of %d packet%s (buffer = %d)", name, b, plural(b), b)
		default:
			continue
		}
		routing := spec.Routing
		if routing == "" {
			routing = "shortest"
		}
		rc, err := runtime.CheckRouting(context.Background(), spec, runtime.CheckOptions{MaxWork: checkWork, MaxMemory: maxMemory})
		switch {
		case err != nil:
			at("routing", lang.Warning, "routing %s of topology %s under %s is not checked for deadlock: %s", routing, t.Label, how, err)
		case !rc.Acyclic && !rc.Deflection:
			at("routing", lang.Warning, "routing %s of topology %s can deadlock under %s: these channels can wait for each other in a cycle: %s", routing, t.Label, how, cycleText(rc.Cycle))
		}
		if err == nil && !rc.Connected {
			at("routing", lang.Warning, "routing %s of topology %s gives no route to %d ordered pair%s of processors", routing, t.Label, rc.PairsWithoutRoute, plural(rc.PairsWithoutRoute))
		}
	}
	return ds
}

// maxCycleShown is how many channels of a cycle a warning lists.
const maxCycleShown = 16

// cycleText prints a cycle of channels as route --check does, the first
// channel again at the end; a long one is cut in the middle.
func cycleText(cycle []runtime.Channel) string {
	var parts []string
	for i, c := range cycle {
		if len(cycle) > maxCycleShown && i >= maxCycleShown/2 && i < len(cycle)-maxCycleShown/2 {
			if i == maxCycleShown/2 {
				parts = append(parts, fmt.Sprintf("… %d more …", len(cycle)-maxCycleShown))
			}
			continue
		}
		parts = append(parts, c.String())
	}
	if len(cycle) > 0 {
		parts = append(parts, cycle[0].String())
	}
	return strings.Join(parts, " → ")
}
