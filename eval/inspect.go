package eval

import (
	"context"
	"fmt"
	"slices"
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
		ds = append(ds, m.sendRoutingChecks(m.sendRoutings(l.programsOf(f)), l.opts.maxMemory)...)
	}
	ds = append(ds, l.checkProgramsAlone(f, names)...)
	if ps := l.programsOf(f); len(names) == 0 && len(ps) > 0 {
		// A file of programs: the routings its sends name, on each
		// machine it imports (whose own checks are its file's).
		for _, n := range l.importedMachines(f) {
			if m, err := build(l, n); err == nil {
				ds = append(ds, m.sendRoutingChecks(m.sendRoutings(ps), l.opts.maxMemory)...)
			}
		}
	}
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
		how := deadlockRisk(spec, t)
		if how == "" {
			continue
		}
		routing := spec.Routing
		if routing == "" {
			routing = "shortest"
		}
		checkDeadlock(spec, "", fmt.Sprintf("routing %s of topology %s", routing, t.Label), how, maxMemory, func(format string, args ...any) {
			at("routing", lang.Warning, format, args...)
		})
	}
	return ds
}

// deadlockRisk is the switching under which spec's routing could
// deadlock, as a warning names it ("" if none could: store and forward
// and virtual cut-through with unbounded buffers). Wormhole's buffers are
// always finite; store and forward's and virtual cut-through's when the
// topology t sets buffer (packets).
func deadlockRisk(spec *runtime.Spec, t *Topology) string {
	switch sw, b := spec.Switching, spec.Packet.BufferFlits; {
	case sw == runtime.Wormhole:
		if _, _, set := t.Where("switching"); !set {
			return "wormhole switching (the default; set switching = … to choose)"
		}
		return "wormhole switching"
	case (sw == runtime.SAF || sw == runtime.VCT) && b > 0:
		name := "store-and-forward"
		if sw == runtime.VCT {
			name = "virtual cut-through"
		}
		return fmt.Sprintf("%s switching with buffers of %d packet%s (buffer = %d)", name, b, plural(b), b)
	}
	return ""
}

// checkDeadlock runs route --check's analysis of routing ("": spec's own)
// on spec, whose switching how names, and warns of what it finds: a
// routing it could not check, a cycle of channels that can wait for each
// other, processors it gives no route. subject names the routing and its
// topology. It reports whether the routing was found free of deadlock.
func checkDeadlock(spec *runtime.Spec, routing, subject, how string, maxMemory int64, warn func(format string, args ...any)) bool {
	rc, err := runtime.CheckRouting(context.Background(), spec, runtime.CheckOptions{Routing: routing, MaxWork: checkWork, MaxMemory: maxMemory})
	switch {
	case err != nil:
		warn("%s under %s is not checked for deadlock: %s", subject, how, err)
	case !rc.Acyclic && !rc.Deflection:
		warn("%s can deadlock under %s: these channels can wait for each other in a cycle: %s", subject, how, cycleText(rc.Cycle, nil))
	}
	if err == nil && !rc.Connected {
		warn("%s gives no route to %d ordered pair%s of processors", subject, rc.PairsWithoutRoute, plural(rc.PairsWithoutRoute))
	}
	return err == nil && rc.Acyclic && !rc.Deflection
}

// sendRoutingChecks checks each routing a program's send names (ps,
// seed 003's SEND and SSEQ: sendRoutings) on the topology programs run on,
// by the same analysis as simChecks checks the topology's own routing, and
// warns at the send that first names it. A send that names the
// topology's own routing adds nothing: its warning is at the topology.
// Then, as a program's messages of different routings share the lanes, it
// checks the routings each program uses together, the topology's own
// among them (sends that name none and collectives take it), when each
// alone is free of deadlock: their union can still cycle, and the warning,
// at the program's first send that names another routing, lists the cycle
// with the routing of the packet that waits at each lane.
func (m *Machine) sendRoutingChecks(ps []programRoutings, maxMemory int64) lang.Diagnostics {
	if len(ps) == 0 {
		return nil
	}
	t, err := m.programTopology(lang.Pos{})
	if err != nil {
		return nil // reported where the programs are checked
	}
	spec, err := m.Spec(t.Label)
	if err != nil || spec.Graph.NumProcs() < 2 {
		return nil // reported by simChecks, or nothing to route
	}
	how := deadlockRisk(spec, t)
	if how == "" {
		return nil
	}
	own := spec.Routing
	if own == "" {
		own = "shortest"
	}
	// free says whether each routing a send names was found free of
	// deadlock alone (the topology's own is checked when first needed:
	// its warning is simChecks').
	free := map[string]bool{}
	var ds lang.Diagnostics
	for _, p := range ps {
		for _, r := range p.named {
			if _, done := free[r.name]; done || r.name == own {
				continue
			}
			subject := fmt.Sprintf("routing %s, which this send names, of topology %s", r.name, t.Label)
			free[r.name] = checkDeadlock(spec, r.name, subject, how, maxMemory, func(format string, args ...any) {
				d := lang.Errorf(r.start, format, args...).Span(r.end)
				d.Severity = lang.Warning
				ds = append(ds, d)
			})
		}
	}
	for _, p := range ps {
		names := []string{own}
		var at *sendRouting
		for i, r := range p.named {
			if r.name != own {
				names = append(names, r.name)
				if at == nil {
					at = &p.named[i]
				}
			}
		}
		if at == nil {
			continue // the topology's routing only
		}
		if _, done := free[own]; !done {
			free[own] = checkDeadlock(spec, own, "", how, maxMemory, func(string, ...any) {})
		}
		if slices.ContainsFunc(names, func(n string) bool { return !free[n] }) {
			continue // one alone can deadlock (warned of)
		}
		rc, err := runtime.CheckRoutings(context.Background(), spec, names, runtime.CheckOptions{MaxWork: checkWork, MaxMemory: maxMemory})
		subject := fmt.Sprintf("routings %s, which program %s uses together on topology %s,", strings.Join(names, ", "), p.program, t.Label)
		var d *lang.Diagnostic
		switch {
		case err != nil:
			d = lang.Errorf(at.start, "%s are not checked for deadlock together under %s: %s", subject, how, err)
		case !rc.Acyclic:
			d = lang.Errorf(at.start, "%s can deadlock under %s, though none can alone: their messages share the lanes, and these channels can wait for each other in a cycle (the routing of the packet waiting at each): %s", subject, how, cycleText(rc.Cycle, rc.CycleRoutings))
		default:
			continue
		}
		d = d.Span(at.end)
		d.Severity = lang.Warning
		ds = append(ds, d)
	}
	return ds
}

// maxCycleShown is how many channels of a cycle a warning lists.
const maxCycleShown = 16

// cycleText prints a cycle of channels as route --check does, the first
// channel again at the end, each followed by its routing in parentheses
// when routings is given (CheckRoutings' CycleRoutings); a long one is cut
// in the middle.
func cycleText(cycle []runtime.Channel, routings []string) string {
	var parts []string
	for i, c := range cycle {
		if len(cycle) > maxCycleShown && i >= maxCycleShown/2 && i < len(cycle)-maxCycleShown/2 {
			if i == maxCycleShown/2 {
				parts = append(parts, fmt.Sprintf("… %d more …", len(cycle)-maxCycleShown))
			}
			continue
		}
		if routings != nil {
			parts = append(parts, fmt.Sprintf("%s (%s)", c, routings[i]))
			continue
		}
		parts = append(parts, c.String())
	}
	if len(cycle) > 0 {
		parts = append(parts, cycle[0].String())
	}
	return strings.Join(parts, " → ")
}
