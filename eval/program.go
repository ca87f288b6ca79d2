package eval

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/runtime"
)

// A Program is an SPMD program of the machine language, `program NAME(…)
// { … }`: every rank runs its body, with rank and ranks in scope. It is
// syntax until Schedule instantiates it on a machine for a rank count and
// a mapping, resolving its names in that machine (its params, functions
// and the processor timings of each rank's processor).
type Program struct {
	ast *lang.Program
}

// Name is the program's name.
func (p *Program) Name() string { return p.ast.Name }

// Source is the text the program was read from.
func (p *Program) Source() *lang.Source { return p.ast.Pos.Src }

// Syntax is the program's syntax tree.
func (p *Program) Syntax() *lang.Program { return p.ast }

// ArgValue is v as the value of the parameter name, v being an argument's
// text (ScheduleOptions.Args) evaluated on the machine, as Schedule takes
// it: a plain number in the parameter's unit when it declares one. It is
// an error, Schedule's without its position, when the program has no such
// parameter or v is not of the parameter's unit.
func (p *Program) ArgValue(name string, v lang.Value) (lang.Value, error) {
	for _, prm := range p.ast.Params {
		if prm.Name == name {
			v, msg := paramValue(p.ast, prm, v)
			if msg != "" {
				return v, errors.New(msg)
			}
			return v, nil
		}
	}
	return v, errors.New(noParameter(p.ast, name))
}

// ProgramParam is a program's parameter: its unit, if it declares one, and
// its default as written ("" when it has none).
type ProgramParam struct {
	Name, Unit, Default string
}

// Params lists the program's parameters in order.
func (p *Program) Params() []ProgramParam {
	out := make([]ProgramParam, len(p.ast.Params))
	for i, prm := range p.ast.Params {
		out[i] = ProgramParam{Name: prm.Name, Unit: prm.Unit}
		if prm.Default != nil {
			out[i].Default = format.Expr(prm.Default)
		}
	}
	return out
}

// programsOf lists the programs of a file and of the files it imports.
func (l *loader) programsOf(f *lang.File) []*lang.Program {
	var out []*lang.Program
	seen := map[string]bool{}
	add := func(s lang.Stmt) {
		if p, ok := s.(*lang.Program); ok && !seen[p.Name] {
			seen[p.Name] = true
			out = append(out, p)
		}
	}
	for _, s := range f.Stmts {
		add(s)
	}
	for _, s := range l.shared[f] {
		add(s)
	}
	return out
}

// checkPrograms reports programs of the same name in a file and its
// imports.
func checkPrograms(f *lang.File, shared []lang.Stmt) lang.Diagnostics {
	var errs lang.Diagnostics
	first := map[string]*lang.Program{}
	for _, list := range [][]lang.Stmt{f.Stmts, shared} {
		for _, s := range list {
			p, ok := s.(*lang.Program)
			if !ok {
				continue
			}
			if q := first[p.Name]; q != nil && q != p {
				d := errs.Add(p.Pos, "program %s is defined twice", p.Name)
				d.Notes = append(d.Notes, lang.Note{Pos: q.Pos, Msg: "first defined here"})
				continue
			}
			first[p.Name] = p
		}
	}
	return errs
}

// Programs lists the programs visible from the machine's file: its own
// and those of the files it imports.
func (m *Machine) Programs() []string {
	var out []string
	for _, p := range m.programs() {
		out = append(out, p.Name)
	}
	return out
}

func (m *Machine) programs() []*lang.Program {
	// Programs typed at the REPL (Extend) come first, the latest first,
	// so that a program defined again replaces the earlier one.
	var out []*lang.Program
	for d := m.loader.opts.extra; d != nil; d = d.below {
		for _, s := range d.stmts {
			if p, ok := s.(*lang.Program); ok {
				out = append(out, p)
			}
		}
	}
	if d := m.loader.machines[m.name]; d != nil {
		out = append(out, m.loader.programsOf(d.file)...)
	}
	return out
}

// Program finds a program visible from the machine's file by name.
func (m *Machine) Program(name string) (*Program, error) {
	ps := m.programs()
	var names []string
	for _, p := range ps {
		if p.Name == name {
			return &Program{ast: p}, nil
		}
		names = append(names, p.Name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("machine %q has no program %s: its file and imports define none", m.name, lang.Excerpt(name))
	}
	return nil, fmt.Errorf("machine %q has no program %s%s; there are: %s", m.name, lang.Excerpt(name), lang.DidYouMean(name, names), strings.Join(names, ", "))
}

// WithProgram selects a program of a file with several (LoadProgram); the
// default is the first.
func WithProgram(name string) Option { return func(o *options) { o.program = name } }

// LoadProgram reads a program from a file (or "std:NAME"): a file of
// programs, which may import machine files, or a machine file with
// programs beside its machines. WithProgram chooses one of several.
func LoadProgram(spec string, opts ...Option) (*Program, error) {
	l := newLoader(opts)
	f := l.readSpec(spec, lang.Pos{})
	if f == nil || len(l.errs) > 0 {
		return nil, l.errs.Err()
	}
	if err := checkPrograms(f, l.shared[f]).Err(); err != nil {
		return nil, err
	}
	ps := l.programsOf(f)
	if len(ps) == 0 {
		return nil, lang.Errorf(f.Src.PosAt(0), "no program in %s: a program is program NAME(params) { … }", f.Src.Name)
	}
	name := l.opts.program
	if name == "" {
		return &Program{ast: ps[0]}, nil
	}
	var names []string
	for _, p := range ps {
		if p.Name == name {
			return &Program{ast: p}, nil
		}
		names = append(names, p.Name)
	}
	return nil, fmt.Errorf("%s: no program %s%s; there are: %s", f.Src.Name, lang.Excerpt(name), lang.DidYouMean(name, names), strings.Join(names, ", "))
}

// ParseProgramBody reads program statements given without a program block
// (`if rank == 0 { compute(10us) } barrier()`) as a program named "main",
// and checks them against m as Schedule would for its processors.
func ParseProgramBody(m *Machine, text string) (*Program, error) {
	ast, err := parser.ParseProgramBody("<program>", text)
	if err != nil {
		return nil, err
	}
	ast.Name = "main"
	p := &Program{ast: ast}
	if _, err := p.compile(m, ScheduleOptions{}); err != nil {
		return nil, err
	}
	return p, nil
}

// Check resolves and checks the program on m without instantiating it:
// names, units, statement arguments. Schedule does this and more.
func (p *Program) Check(m *Machine) error {
	_, err := p.compile(m, ScheduleOptions{})
	return err
}

// ScheduleOptions say how to instantiate a program.
type ScheduleOptions struct {
	// Ranks is the number of ranks; 0 means one per processor of the
	// machine's topology (WithTopology's, else the first).
	Ranks int
	// Map gives each rank's processor as an external node id (MapRanks);
	// nil maps linearly.
	Map []int
	// Args are values for the program's parameters, parsed as --set
	// values are ("8KB", "2 * delta").
	Args map[string]string
	// Answer is what the answer to be computed from the schedule takes
	// beyond it (package eval/program's AnalyzeFootprint or RunFootprint):
	// it is counted with the schedule against the machine's memory limit
	// as operations are added, so that a program too large to answer is
	// refused while it is instantiated, within the limit, rather than
	// after.
	Answer runtime.Footprint
}

// Limits on instantiating a program.
const (
	// MaxProgramSteps bounds the statements and loop iterations all ranks
	// of one instantiation run together.
	MaxProgramSteps = 200_000_000
	// MaxRanks bounds the rank count.
	MaxRanks = lang.MaxRanks
	// schedOpBytes estimates what one operation costs in a schedule: the
	// operation, about one dependency and the offsets.
	schedOpBytes = 40 + 8 + 4
	// memCheckEvery is how many operations may be added between checks
	// of the memory they and the answer take.
	memCheckEvery = 1 << 16
)

// sortedKeys lists a map's keys in order, for messages.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// short cuts a statement's text for a label.
func short(s string) string {
	const n = 48
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// checkPrograms checks programs on m, all errors at once, as run does:
// each is compiled and, when that succeeds, instantiated with its
// defaults for one rank per processor of m's topology (run's
// default), which matches sends to receives and runs the static deadlock
// check.
func (m *Machine) checkPrograms(ps []*lang.Program) error {
	var errs lang.Diagnostics
	for _, p := range ps {
		prog := &Program{ast: p}
		if err := prog.Check(m); err != nil {
			errs.Append(err)
			continue
		}
		_, err := prog.Schedule(m, ScheduleOptions{})
		errs.Append(err)
	}
	return errs.Err()
}

// programRoutings are the routings one program's sends name, each where
// a send of it first names it.
type programRoutings struct {
	program string
	named   []sendRouting
}

// sendRoutings lists, program by program, the routings the sends of ps
// name on m (check warns of those that can deadlock alone or together:
// sendRoutingChecks); a program with errors, or whose sends name none, is
// left out.
func (m *Machine) sendRoutings(ps []*lang.Program) []programRoutings {
	var out []programRoutings
	for _, p := range ps {
		c, _ := (&Program{ast: p}).compileWith(m, ScheduleOptions{}, false)
		if c.errs.Err() != nil {
			continue
		}
		var rs []sendRouting
		for _, r := range c.named {
			if !slices.ContainsFunc(rs, func(o sendRouting) bool { return o.name == r.name }) {
				rs = append(rs, r)
			}
		}
		if len(rs) > 0 {
			out = append(out, programRoutings{program: p.Name, named: rs})
		}
	}
	return out
}

// importedMachines lists the machines of the files f imports, in order.
func (l *loader) importedMachines(f *lang.File) []string {
	var out []string
	for _, s := range f.Stmts {
		imp, ok := s.(*lang.Import)
		if !ok {
			continue
		}
		path := imp.Path
		if !strings.HasPrefix(path, "std:") && !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(f.Src.Name), path)
		}
		if g := l.files[fileKey(path)]; g != nil {
			out = append(out, l.namesIn(g)...)
		}
	}
	return out
}

// checkProgramsAlone reports programs defined twice and, in a file of
// programs that defines no machine, checks its programs on the machines of
// the files it imports.
func (l *loader) checkProgramsAlone(f *lang.File, names []string) lang.Diagnostics {
	errs := checkPrograms(f, l.shared[f])
	ps := l.programsOf(f)
	if len(names) > 0 || len(ps) == 0 || len(errs) > 0 {
		return errs
	}
	imported := l.importedMachines(f)
	for _, n := range imported {
		m, err := build(l, n)
		if err != nil {
			continue // reported where that machine is checked
		}
		errs.Append(m.checkPrograms(ps))
	}
	if len(imported) == 0 {
		// No machine at all: each program is checked alone.
		m, err := LoadSource("<stand-in>", standInMachine)
		if err != nil {
			errs.Append(err) // cannot happen: a test checks files of programs alone
			return errs
		}
		for _, p := range ps {
			errs = append(errs, (&Program{ast: p}).checkAlone(m)...)
		}
	}
	return errs
}

// standInMachine is what a program is checked on when its file names no
// machine (checkAlone): it defines nothing a program could use.
const standInMachine = `machine "stand-in" {
	processor cpu {}
	topology t = chain(2) { latency = 1us; speed = 1MB/s }
}
`
