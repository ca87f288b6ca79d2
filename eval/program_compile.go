package eval

import (
	"fmt"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/registry"
	"github.com/parasol-lang/parasol/runtime"
)

// A program is compiled once per instantiation, in the machine it runs on:
// its expressions become the machine's compiled closures (compile.go) over
// a frame whose slots hold rank, the lets and loop variables, and the
// timings of the rank's processor. Names resolve as the machine's own do
// (resolve.go), with the program's locals in scope, so an unknown name is
// reported with the same suggestions. The result is a tree of pnodes that
// instantiate.go runs once per rank.

type pkind uint8

const (
	pLet pkind = iota
	pFor
	pIf
	pOp   // an operation: compute, send, recv, a collective, spawn, switch
	pWait // wait(h)
	pWaitAll
)

type pnode struct {
	kind      pkind
	pos       lang.Pos
	apos      lang.Pos // pFor, pIf: where a is written, for errors in its value
	bpos      lang.Pos // pFor: where b is written
	slot      int      // pLet, pFor: the local's slot; pWait: the handle
	a, b      cexpr
	body, els []*pnode
	op        *pop
}

// Argument roles of statement calls.
type role uint8

const (
	rBytes role = iota // the size of a send or a collective (first, positional)
	rTime              // compute's time
	rTo
	rFrom
	rTag
	rRoot
	rSize
	nRoles
)

var roleNames = map[string]role{"to": rTo, "from": rFrom, "tag": rTag, "root": rRoot, "size": rSize}

type parg struct {
	set bool
	ce  cexpr
	pos lang.Pos
	e   lang.Expr
}

// pop is a compiled statement call.
type pop struct {
	name        string
	kind        lang.SchedKind
	args        [nRoles]parg
	algorithm   string
	routing     string // a send's routing: a registry name, "" for the machine's
	nonblocking bool
	handle      int // isend/irecv bound by let: its handle; -1 otherwise
	cpuSlot     int // spawn, switch: the slot of the processor's createjob or jobswitch
	label       int32
	line        int32
	pos         lang.Pos
	text        string
	clk         *pclock // the run-time part: clock reads, values (program_clock.go)
}

// stmtSpec says what a statement call takes: named arguments it accepts,
// those it needs, and its positional arguments' roles.
type stmtSpec struct {
	kind       lang.SchedKind
	positional []role
	named      []string
	required   []string
	usage      string
}

var stmtSpecs = map[string]stmtSpec{
	"compute": {kind: lang.OpCalc, positional: []role{rTime}, usage: "compute(TIME), e.g. compute(10us) or compute(2e6 * float.mul)"},
	"send":    {kind: lang.OpSend, positional: []role{rBytes}, named: []string{"to", "tag", "routing"}, required: []string{"to"}, usage: "send(BYTES, to: R [, tag: T] [, routing: NAME])"},
	"isend":   {kind: lang.OpSend, positional: []role{rBytes}, named: []string{"to", "tag", "routing"}, required: []string{"to"}, usage: "let h = isend(BYTES, to: R [, tag: T] [, routing: NAME])"},
	"recv":    {kind: lang.OpRecv, named: []string{"from", "tag", "size"}, usage: "recv([from: R] [, tag: T] [, size: BYTES])"},
	"irecv":   {kind: lang.OpRecv, named: []string{"from", "tag", "size"}, usage: "let h = irecv([from: R] [, tag: T] [, size: BYTES])"},
	"spawn":   {kind: lang.OpCalc, usage: "spawn()"},
	"switch":  {kind: lang.OpCalc, usage: "switch()"},
	"wait":    {usage: "wait(h), h a request of isend or irecv"},
	"waitall": {usage: "waitall()"},
}

func init() {
	for _, c := range registry.Collectives {
		s := stmtSpec{kind: lang.OpColl, named: []string{"algorithm"}, usage: c.Signature + " [, algorithm: NAME]"}
		if c.Name != "barrier" {
			s.positional = []role{rBytes}
		}
		if strings.Contains(c.Signature, "root:") {
			s.named = append(s.named, "root")
		}
		stmtSpecs[c.Name] = s
	}
}

func statementNames() []string { return sortedKeys(stmtSpecs) }

// timingBlocks maps the names a program uses for a processor's timing
// blocks (float.mul) to the blocks.
var timingBlocks = map[string]string{
	"integer": "integer_timings", "long": "long_integer_timings", "float": "float_timings", "double": "double_timings",
	"integer_timings": "integer_timings", "long_integer_timings": "long_integer_timings",
	"float_timings": "float_timings", "double_timings": "double_timings",
}

// pname is a name a program declares: a value in a slot, or a request
// handle.
type pname struct {
	name   string
	slot   int
	handle bool
	l      local
	pos    lang.Pos
	reg    int // a run-time value's register + 1 (program_clock.go); 0 for others
}

// layout is what compiling a program learns that instantiating it needs,
// built up by pcomp and handed over whole to compiled.
type layout struct {
	nslots   int
	rankSlot int
	ranks    int
	// timing values the program reads, by slot: what (block.field, or
	// createjob and jobswitch) and where it is first read.
	timings   map[string]int
	timingPos map[string]lang.Pos
	timingEnd map[string]lang.Pos
	nhandles  int
	labels    []string
	labelPos  []lang.Pos
}

// pcomp compiles one program for one machine.
type pcomp struct {
	layout
	m      *Machine
	res    *resolution
	errs   lang.Diagnostics
	scopes [][]pname
	clk    clockComp
	alone  bool // checked without its machine (checkAlone)
	// usable holds, per routing a send names, whether the machine's
	// topology can take it ("" if it can, else why not), checked once;
	// named lists those it can take, each where a send first names it.
	usable map[string]string
	named  []sendRouting
}

// sendRouting is a routing a program's send names (send(…, routing:
// NAME)), and where (the name) a send first does.
type sendRouting struct {
	name       string
	start, end lang.Pos
}

// compiled is a program ready to instantiate.
type compiled struct {
	layout
	body     []*pnode
	params   []lang.Value
	src      *lang.Source
	name     string
	regNames []string // run-time registers per rank, by name (program_clock.go)
}

// compile resolves and compiles p on m; every error is reported at once.
func (p *Program) compile(m *Machine, o ScheduleOptions) (*compiled, error) {
	c, out := p.compileWith(m, o, false)
	if err := c.errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// checkAlone checks p without the machine it will run on (a file of
// programs that names none): on the stand-in m, which defines nothing,
// with the rank count unknown. Its statements, their arguments, its own
// names and the units of expressions made of them are checked; an
// expression that uses a name the program does not define (a machine's
// param, function or model primitive) is left for the machine, with a
// warning when the name is close to one the program defines.
func (p *Program) checkAlone(m *Machine) lang.Diagnostics {
	c, _ := p.compileWith(m, ScheduleOptions{Ranks: 1}, true)
	return c.errs
}

func (p *Program) compileWith(m *Machine, o ScheduleOptions, alone bool) (*pcomp, *compiled) {
	ranks := o.Ranks
	if ranks <= 0 {
		t, err := m.programTopology(p.ast.Pos)
		if err != nil {
			c := &pcomp{}
			c.errs.Append(unwrapDep(err))
			return c, nil
		}
		ranks = t.Graph.NumProcs()
	}
	c := &pcomp{m: m, res: newResolution(m.res), alone: alone, layout: layout{timings: map[string]int{}, timingPos: map[string]lang.Pos{}, timingEnd: map[string]lang.Pos{}, ranks: ranks}}
	c.clk.names = runtimeNames(p.ast.Body)
	c.push()
	if alone {
		// The rank count is the machine's, unknown here.
		slot := c.newSlot()
		c.declare(pname{name: "ranks", slot: slot, l: local{slot: slot, known: true, kind: lang.Number}})
	} else {
		ranksVal := lang.Num(float64(ranks))
		c.declare(pname{name: "ranks", slot: -1, l: local{known: true, kind: lang.Number, konst: &ranksVal}})
	}
	out := &compiled{src: p.ast.Pos.Src, name: p.ast.Name}
	c.params(p.ast, o.Args, out)
	c.rankSlot = c.newSlot()
	c.declare(pname{name: "rank", slot: c.rankSlot, l: local{slot: c.rankSlot, known: true, kind: lang.Number}})
	out.body = c.stmts(p.ast.Body)
	out.layout = c.layout
	out.regNames = c.clk.regNames
	return c, out
}

// machineNames lists the names e uses that neither the program (in scope
// where e stands) nor the machine's language defines: in a program checked
// alone, those its machine must define.
func (c *pcomp) machineNames(e lang.Expr) []*lang.Ident {
	var out []*lang.Ident
	bound := map[string]bool{} // variables of sums
	lang.Inspect(e, func(e lang.Expr) bool {
		switch e := e.(type) {
		case *lang.Sum:
			bound[e.Var] = true
		case *lang.Ident:
			_, local := c.lookup(e.Name)
			_, timing := c.timings[e.Name]
			_, builtin := builtins[e.Name]
			_, index := indexes[e.Name]
			if !local && !timing && !builtin && !index && !bound[e.Name] && c.m.rootField(e.Name) == nil {
				out = append(out, e)
			}
		}
		return true
	})
	return out
}

func (c *pcomp) push() { c.scopes = append(c.scopes, nil) }
func (c *pcomp) pop()  { c.scopes = c.scopes[:len(c.scopes)-1] }

func (c *pcomp) newSlot() int {
	n := c.nslots
	c.nslots++
	return n
}

func (c *pcomp) declare(n pname) {
	top := len(c.scopes) - 1
	c.scopes[top] = append(c.scopes[top], n)
}

// lookup finds the innermost declaration of a name.
func (c *pcomp) lookup(name string) (pname, bool) {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		s := c.scopes[i]
		for j := len(s) - 1; j >= 0; j-- {
			if s[j].name == name {
				return s[j], true
			}
		}
	}
	return pname{}, false
}

// visible returns the value names in scope, for the resolver, and their
// slots, for the compiler; a timing read (float.mul) is a local too.
func (c *pcomp) visible() ([]string, map[string]local) {
	locals := map[string]local{}
	for _, s := range c.scopes {
		for _, n := range s {
			if !n.handle && n.reg == 0 {
				locals[n.name] = n.l
			} else {
				delete(locals, n.name)
			}
		}
	}
	for what, slot := range c.timings {
		locals[what] = local{slot: slot, known: true, kind: lang.Number, dim: lang.TimeDim}
	}
	names := sortedKeys(locals)
	return names, locals
}

// params evaluates the program's parameters: the arguments given, else
// the defaults, each taken in the parameter's unit when it is a plain
// number. They are constants of the instantiation.
func (c *pcomp) params(ast *lang.Program, args map[string]string, out *compiled) {
	known := map[string]bool{}
	for _, prm := range ast.Params {
		if known[prm.Name] {
			c.errs.Add(prm.Pos, "parameter %s appears twice", prm.Name)
		}
		if prm.Name == "rank" || prm.Name == "ranks" {
			// rank is declared after the parameters and ranks before: one
			// would be ignored, the other would hide the true rank count.
			c.errs.Add(prm.Pos, "a parameter cannot be called %s: the program's %s is always in scope (rank: this rank's number, ranks: how many run)", prm.Name, prm.Name)
		}
		known[prm.Name] = true
	}
	for _, name := range sortedKeys(args) {
		if !known[name] {
			c.errs.Add(ast.NamePos, "%s", noParameter(ast, name))
		}
	}
	for _, prm := range ast.Params {
		var v lang.Value
		var err error
		switch text, given := args[prm.Name]; {
		case given:
			v, err = c.argValue(prm, text)
		case prm.Default != nil:
			ce, ok := c.expr(prm.Default)
			if !ok || c.alone && !ce.known && !ce.konst {
				// In error, or left for the machine (checkAlone).
				c.declareBad(prm)
				continue
			}
			v, err = c.constValue(ce)
		default:
			c.errs.Add(prm.Pos, "program %s needs a value for parameter %s, which has no default", ast.Name, prm.Name)
			c.declareBad(prm)
			continue
		}
		if err != nil {
			c.errs.Append(err)
			c.declareBad(prm)
			continue
		}
		v, msg := paramValue(ast, prm, v)
		if msg != "" {
			c.errs.Add(prm.Pos, "%s", msg)
			c.declareBad(prm)
			continue
		}
		val := v
		c.declare(pname{name: prm.Name, slot: -1, pos: prm.Pos, l: local{known: true, kind: v.Kind, dim: v.Dim, konst: &val}})
		out.params = append(out.params, v)
	}
}

// noParameter says that program ast has no parameter name.
func noParameter(ast *lang.Program, name string) string {
	var names []string
	for _, prm := range ast.Params {
		names = append(names, prm.Name)
	}
	msg := "takes no parameters"
	if len(names) > 0 {
		msg = "takes " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("program %s has no parameter %s%s; it %s", ast.Name, lang.Excerpt(name), lang.DidYouMean(name, names), msg)
}

// paramValue is v as the value of prm, a parameter of ast: a plain number
// taken in prm's unit when it declares one. msg says why v cannot be its
// value ("" when it can).
func paramValue(ast *lang.Program, prm *lang.Param, v lang.Value) (_ lang.Value, msg string) {
	if prm.Unit == "" {
		return v, ""
	}
	u, _ := lang.LookupUnit(prm.Unit)
	if v.Kind == lang.Number && v.Dim == (lang.Dim{}) {
		v = lang.Quantity(v.Num*u.Num, u.Dim)
	}
	if v.Kind != lang.Number || v.Dim != u.Dim {
		return v, fmt.Sprintf("parameter %s of program %s must be a %s, got %s", prm.Name, ast.Name, u.Dim.Name(), describeValue(v))
	}
	return v, ""
}

// declareBad declares a parameter whose value is in error, as a value of
// its unit or of unknown type, so that its uses report nothing more.
func (c *pcomp) declareBad(prm *lang.Param) {
	slot := c.newSlot()
	l := local{slot: slot}
	if u, ok := lang.LookupUnit(prm.Unit); ok {
		l.known, l.kind, l.dim = true, lang.Number, u.Dim
	}
	c.declare(pname{name: prm.Name, slot: slot, pos: prm.Pos, l: l})
}

// argValue evaluates an argument given for a parameter in the machine's
// scope, as a --set value is.
func (c *pcomp) argValue(prm *lang.Param, text string) (lang.Value, error) {
	e, err := parser.ParseExpr(prm.Name, text)
	if err != nil {
		return lang.Value{}, err
	}
	return c.m.EvalExpr(e)
}

// constValue runs an expression that depends on no rank.
func (c *pcomp) constValue(ce cexpr) (lang.Value, error) {
	if ce.konst {
		return ce.val, nil
	}
	fr := &frame{stack: make([]lang.Value, c.nslots+64)}
	v := ce.run(fr)
	if fr.err != nil {
		return v, fr.err
	}
	return v, nil
}

func describeValue(v lang.Value) string {
	if v.Kind == lang.Number {
		return "a " + v.Dim.Name() + " (" + lang.FormatQuantity(v.Num, v.Dim) + ")"
	}
	return "a " + v.TypeName()
}

// expr resolves and compiles an expression where it stands.
func (c *pcomp) expr(e lang.Expr) (cexpr, bool) {
	n := len(c.errs)
	e = c.lower(e)
	if len(c.errs) > n {
		return cexpr{}, false
	}
	names, locals := c.visible()
	if c.alone {
		if free := c.machineNames(e); len(free) > 0 {
			for _, id := range free {
				if hint := lang.DidYouMean(id.Name, names); hint != "" {
					d := errAt(id, "%s is not defined in the program, so the machine it runs on must define it%s", lang.Excerpt(id.Name), hint)
					d.Severity = lang.Warning
					c.errs = append(c.errs, d)
				}
			}
			// Left for the machine: a value of unknown type.
			return cexpr{run: func(*frame) lang.Value { return lang.Value{} }}, true
		}
	}
	r := &resolver{m: c.m, res: c.res, errs: &c.errs}
	r.expr(e, &rscope{obj: c.m.root, locals: names})
	if len(c.errs) > n {
		return cexpr{}, false
	}
	ce, err := (&compiler{m: c.m, res: c.res}).compile(e, &scope{obj: c.m.root, locals: locals, nslots: &c.nslots})
	if err != nil {
		c.errs.Append(unwrapDep(err))
		return cexpr{}, false
	}
	return ce, true
}

// lower rewrites what only programs say into what the machine's compiler
// reads: a processor timing (float.mul) becomes a local that each rank
// fills from its own processor. It reports named arguments outside
// statement calls and request handles used as values. The tree is copied
// where it changes, never written: it may be shared.
func (c *pcomp) lower(e lang.Expr) lang.Expr {
	switch x := e.(type) {
	case *lang.Ident:
		if n, ok := c.lookup(x.Name); ok && n.handle {
			c.errs = append(c.errs, errAt(x, "%s is a request (let %s = isend(…) or irecv(…)); only wait(%s) takes it", x.Name, x.Name, x.Name))
		} else if ok && n.reg > 0 {
			c.errs = append(c.errs, runtimeUse(x))
		}
		return x
	case *lang.Select:
		if id, ok := x.X.(*lang.Ident); ok {
			if block, isTiming := timingBlocks[id.Name]; isTiming {
				if _, local := c.lookup(id.Name); !local {
					what := block + "." + x.Name
					if _, seen := c.timings[what]; !seen {
						c.timings[what] = c.newSlot()
						c.timingPos[what] = id.Pos
						c.timingEnd[what] = lang.End(x)
					}
					return &lang.Ident{Pos: id.Pos, Name: what}
				}
			}
		}
		if y := c.lower(x.X); y != x.X {
			return &lang.Select{Pos: x.Pos, X: y, Name: x.Name}
		}
		return x
	case *lang.NamedArg:
		c.errs = append(c.errs, lang.Errorf(x.Pos, "a named argument (%s: …) belongs to a statement such as send(…, to: R); a function takes its arguments in order", x.Name))
		return x
	case *lang.Unary:
		if y := c.lower(x.X); y != x.X {
			return &lang.Unary{Pos: x.Pos, Op: x.Op, X: y}
		}
		return x
	case *lang.Binary:
		a, b := c.lower(x.X), c.lower(x.Y)
		if a != x.X || b != x.Y {
			return &lang.Binary{Pos: x.Pos, Op: x.Op, X: a, Y: b}
		}
		return x
	case *lang.Cond:
		i, t, f := c.lower(x.If), c.lower(x.Then), c.lower(x.Else)
		if i != x.If || t != x.Then || f != x.Else {
			return &lang.Cond{Pos: x.Pos, If: i, Then: t, Else: f}
		}
		return x
	case *lang.Call:
		if isNow(x) && !c.shadowed("now") {
			c.errs = append(c.errs, errAt(x, "now() is known only while the program runs; it can go into a let, until(…) or send's value:, but cannot decide an if, a loop, a size, a rank or a compute time, which are fixed before the run"))
			return x
		}
		changed := false
		args := make([]lang.Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = c.lower(a)
			changed = changed || args[i] != a
		}
		fn := x.Fn
		if sel, ok := fn.(*lang.Select); ok {
			if y := c.lower(sel.X); y != sel.X {
				fn, changed = &lang.Select{Pos: sel.Pos, X: y, Name: sel.Name}, true
			}
		}
		if changed {
			return &lang.Call{Pos: x.Pos, Fn: fn, Args: args}
		}
		return x
	case *lang.Sum:
		from, to, body := c.lower(x.From), c.lower(x.To), c.lower(x.Body)
		if from != x.From || to != x.To || body != x.Body {
			return &lang.Sum{Pos: x.Pos, Var: x.Var, From: from, To: to, Body: body}
		}
		return x
	}
	return e
}

func (c *pcomp) stmts(list []lang.Stmt) []*pnode {
	var out []*pnode
	for _, s := range list {
		if n := c.stmt(s); n != nil {
			out = append(out, n)
		}
	}
	return out
}

// builtinNames are the values every rank has in scope, which a let or a
// loop may not rebind: rebinding rank would silently give every rank the
// same number.
var builtinNames = map[string]string{
	"rank":  "this rank's number",
	"ranks": "how many ranks run",
}

// rebinds reports a let or loop variable that would hide a built-in name.
func (c *pcomp) rebinds(pos lang.Pos, what, name string) bool {
	meaning, ok := builtinNames[name]
	if !ok {
		return false
	}
	c.errs.Add(pos, "%s cannot rebind the built-in name %s (%s); choose another name", what, name, meaning)
	return true
}

func (c *pcomp) stmt(s lang.Stmt) *pnode {
	switch s := s.(type) {
	case *lang.Let:
		if c.rebinds(s.Pos, "let", s.Name) {
			c.expr(s.Value) // its own errors still count
			return nil
		}
		if n, done := c.clockLet(s); done {
			return n
		}
		if call, ok := s.Value.(*lang.Call); ok {
			if id, ok := call.Fn.(*lang.Ident); ok && (id.Name == "isend" || id.Name == "irecv") {
				if _, shadowed := c.lookup(id.Name); !shadowed {
					h := c.nhandles
					c.nhandles++
					op := c.call(call, h)
					c.declare(pname{name: s.Name, slot: h, handle: true, pos: s.Pos})
					if op == nil {
						return nil
					}
					return &pnode{kind: pOp, pos: s.Pos, op: op}
				}
			}
		}
		ce, ok := c.expr(s.Value)
		slot := c.newSlot()
		c.declare(pname{name: s.Name, slot: slot, pos: s.Pos, l: local{slot: slot, known: ce.known, kind: ce.kind, dim: ce.dim}})
		if !ok {
			return nil
		}
		return &pnode{kind: pLet, pos: s.Pos, slot: slot, a: ce}
	case *lang.For:
		bad := c.rebinds(s.Pos, "a for loop", s.Var)
		from, ok1 := c.expr(s.From)
		to, ok2 := c.expr(s.To)
		for i, b := range []cexpr{from, to} {
			if b.known && (b.kind != lang.Number || b.dim != (lang.Dim{})) {
				c.errs = append(c.errs, errAt([]lang.Expr{s.From, s.To}[i], "the bounds of a for loop are whole numbers, not %s", describeKind(b)))
				ok1 = false
			}
		}
		c.push()
		slot := c.newSlot()
		c.declare(pname{name: s.Var, slot: slot, pos: s.Pos, l: local{slot: slot, known: true, kind: lang.Number}})
		body := c.stmts(s.Body)
		c.pop()
		if !ok1 || !ok2 || bad {
			return nil
		}
		return &pnode{kind: pFor, pos: s.Pos, apos: lang.Start(s.From), bpos: lang.Start(s.To), slot: slot, a: from, b: to, body: body}
	case *lang.If:
		cond, ok := c.expr(s.Cond)
		if ok && cond.known && cond.kind != lang.Bool {
			c.errs = append(c.errs, errAt(s.Cond, "the condition of if must be true or false, not %s (rank == 0, mod(rank, 2) == 1, …)", describeKind(cond)))
			ok = false
		}
		c.push()
		then := c.stmts(s.Then)
		c.pop()
		c.push()
		els := c.stmts(s.Else)
		c.pop()
		if !ok {
			return nil
		}
		return &pnode{kind: pIf, pos: s.Pos, apos: lang.Start(s.Cond), a: cond, body: then, els: els}
	case *lang.Do:
		return c.do(s)
	}
	c.errs.Add(s.StmtPos(), "this statement does not belong in a program")
	return nil
}

func describeKind(ce cexpr) string {
	if ce.kind == lang.Number {
		return "a " + ce.dim.Name()
	}
	return "a " + ce.kind.String()
}

// do compiles a statement call.
func (c *pcomp) do(s *lang.Do) *pnode {
	id, ok := s.Call.Fn.(*lang.Ident)
	if !ok {
		c.errs = append(c.errs, errAt(s.Call.Fn, "%s is no statement; a statement is one of %s (compute(%s) spends a cost)",
			lang.Excerpt(format.Expr(s.Call.Fn)), strings.Join(statementNames(), ", "), lang.Excerpt(format.Expr(s.Call))))
		return nil
	}
	if n, done := c.clockDo(s); done {
		return n
	}
	switch id.Name {
	case "wait":
		if len(s.Call.Args) != 1 {
			c.errs.Add(s.Pos, "wait takes one request: wait(h), with let h = isend(…) or irecv(…)")
			return nil
		}
		arg, ok := s.Call.Args[0].(*lang.Ident)
		n, found := pname{}, false
		if ok {
			n, found = c.lookup(arg.Name)
		}
		if !ok || !found || !n.handle {
			e := s.Call.Args[0]
			c.errs = append(c.errs, errAt(e, "wait takes a request, %s is none%s", lang.Excerpt(format.Expr(e)), lang.DidYouMean(format.Expr(e), c.handleNames())))
			return nil
		}
		return &pnode{kind: pWait, pos: s.Pos, slot: n.slot}
	case "waitall":
		if len(s.Call.Args) != 0 {
			c.errs.Add(s.Pos, "waitall takes no arguments: it waits for every request not yet waited for")
			return nil
		}
		return &pnode{kind: pWaitAll, pos: s.Pos}
	case "isend", "irecv":
		c.errs.Add(s.Pos, "%s starts a request that wait needs: let h = %s(…), then wait(h)", id.Name, id.Name)
		return nil
	}
	op := c.call(s.Call, -1)
	if op == nil {
		return nil
	}
	return &pnode{kind: pOp, pos: s.Pos, op: op}
}

func (c *pcomp) handleNames() []string {
	var out []string
	for _, s := range c.scopes {
		for _, n := range s {
			if n.handle {
				out = append(out, n.name)
			}
		}
	}
	return out
}

// call compiles the call of an operation statement; handle is the request
// an isend or irecv fills, -1 for others.
func (c *pcomp) call(call *lang.Call, handle int) *pop {
	id := call.Fn.(*lang.Ident)
	spec, ok := stmtSpecs[id.Name]
	if !ok || id.Name == "wait" || id.Name == "waitall" {
		msg := "unknown statement %s%s; a statement is one of %s"
		if c.m.rootField(id.Name) != nil || builtins[id.Name].apply != nil {
			msg = "%s is a function, not a statement%s; a statement is one of %s (compute(…) spends a cost)"
		}
		c.errs = append(c.errs, errAt(id, msg, lang.Excerpt(id.Name), lang.DidYouMean(id.Name, statementNames()), strings.Join(statementNames(), ", ")))
		return nil
	}
	op := &pop{name: id.Name, kind: spec.kind, handle: handle, nonblocking: handle >= 0, cpuSlot: -1, pos: call.Pos, line: int32(call.Pos.Line)}
	op.text = short(stmtText(call))
	n := len(c.errs)
	npos := 0
	// given counts an argument whose value was in error as given, so that
	// its error is the only one and "needs to:" stays for a missing to:.
	var given [nRoles]bool
	for _, a := range call.Args {
		na, named := a.(*lang.NamedArg)
		if !named {
			if npos >= len(spec.positional) {
				c.errs = append(c.errs, errAt(a, "%s takes %s; this argument is one too many: %s", id.Name, countArgs(len(spec.positional)), spec.usage))
				npos++
				continue
			}
			c.arg(op, spec.positional[npos], a, a)
			npos++
			continue
		}
		if !containsString(spec.named, na.Name) {
			what := "no named arguments"
			if len(spec.named) > 0 {
				what = strings.Join(spec.named, ": and ") + ":"
			}
			c.errs.Add(na.Pos, "%s takes no argument %s:%s; it takes %s (%s)", id.Name, lang.Excerpt(na.Name), lang.DidYouMean(na.Name, spec.named), what, spec.usage)
			continue
		}
		if na.Name == "algorithm" {
			c.algorithm(op, na)
			continue
		}
		if na.Name == "routing" {
			if op.routing != "" {
				c.errs.Add(na.Pos, "routing: is given twice")
				continue
			}
			c.routing(op, na)
			continue
		}
		r := roleNames[na.Name]
		if given[r] {
			c.errs.Add(na.Pos, "%s: is given twice", na.Name)
			continue
		}
		given[r] = true
		c.arg(op, r, na.X, na)
	}
	if npos < len(spec.positional) {
		c.errs.Add(call.Pos, "%s needs %s: %s", id.Name, countArgs(len(spec.positional)), spec.usage)
	}
	for _, req := range spec.required {
		if !given[roleNames[req]] {
			c.errs.Add(call.Pos, "%s needs %s: and the rank it sends to (%s)", id.Name, req, spec.usage)
		}
	}
	switch id.Name {
	case "spawn", "switch":
		field := map[string]string{"spawn": "createjob", "switch": "jobswitch"}[id.Name]
		if _, seen := c.timings[field]; !seen {
			c.timings[field] = c.newSlot()
			c.timingPos[field] = call.Pos
		}
		op.cpuSlot = c.timings[field]
	}
	if len(c.errs) > n {
		return nil
	}
	op.label = int32(len(c.labels))
	c.labels = append(c.labels, op.text)
	c.labelPos = append(c.labelPos, call.Pos)
	return op
}

func countArgs(n int) string {
	switch n {
	case 0:
		return "no arguments in order"
	case 1:
		return "one argument in order"
	}
	return fmt.Sprintf("%d arguments in order", n)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// arg compiles an argument for role r and checks its type where it is
// known before running.
func (c *pcomp) arg(op *pop, r role, e lang.Expr, at lang.Expr) {
	ce, ok := c.expr(e)
	if !ok {
		return
	}
	if ce.known {
		if msg := roleMismatch(r, ce.kind, ce.dim); msg != "" {
			c.errs = append(c.errs, errAt(e, "%s: %s, got %s", op.name, msg, describeKind(ce)))
			return
		}
	}
	op.args[r] = parg{set: true, ce: ce, pos: lang.Start(at), e: e}
}

// roleMismatch says what an argument of role r must be when kind and dim
// are not that, or returns "".
func roleMismatch(r role, kind lang.Kind, dim lang.Dim) string {
	if kind != lang.Number {
		return roleWant(r)
	}
	switch r {
	case rBytes, rSize:
		if dim != lang.SizeDim && dim != (lang.Dim{}) {
			return roleWant(r)
		}
	case rTime:
		if dim != lang.TimeDim {
			return roleWant(r)
		}
	default:
		if dim != (lang.Dim{}) {
			return roleWant(r)
		}
	}
	return ""
}

func roleWant(r role) string {
	switch r {
	case rBytes, rSize:
		return "the size must be a size (8KB) or a number of bytes"
	case rTime:
		return "the argument must be a time (10us, 2e6 * float.mul)"
	case rTag:
		return "the tag must be a whole number"
	}
	return "the rank must be a whole number"
}

// algorithm checks a collective's algorithm: a name from the registry.
func (c *pcomp) algorithm(op *pop, na *lang.NamedArg) {
	coll, _ := registry.LookupCollective(op.name)
	var word string
	switch x := na.X.(type) {
	case *lang.Ident:
		word = x.Name
	case *lang.StringLit:
		word = x.Value
	default:
		if w, ok := wordOf(na.X, true); ok {
			word = w
		}
	}
	if word == "" {
		c.errs = append(c.errs, errAt(na.X, "algorithm: takes the name of an algorithm of %s: %s", op.name, coll.Algorithms.List()))
		return
	}
	en, ok := coll.Algorithms.Lookup(word)
	if !ok {
		c.errs = append(c.errs, errAt(na.X, "%s has no algorithm %s%s; it has %s", op.name, lang.Excerpt(word), lang.DidYouMean(word, coll.Algorithms.Spellings()), coll.Algorithms.List()))
		return
	}
	op.algorithm = en.Name
}

// routing checks a send's routing (seed 003 §3.2: TINY's SEND takes the
// sequential routing, SSEQ the quasiadaptive one; here a send names any
// routing of the registry): a name the machine's topology can take.
func (c *pcomp) routing(op *pop, na *lang.NamedArg) {
	var word string
	switch x := na.X.(type) {
	case *lang.StringLit:
		word = x.Value
	default:
		word, _ = wordOf(na.X, true)
	}
	if word == "" {
		c.errs = append(c.errs, errAt(na.X, "routing: takes the name of a routing: %s", registry.Routing.List()))
		return
	}
	en, ok := registry.Routing.Lookup(word)
	if !ok {
		c.errs = append(c.errs, errAt(na.X, "unknown routing %s%s; a routing is one of %s", lang.Excerpt(word), lang.DidYouMean(word, registry.Routing.Spellings()), registry.Routing.List()))
		return
	}
	op.routing = en.Name
	if c.alone {
		return
	}
	why, seen := c.usable[en.Name]
	if !seen {
		if c.usable == nil {
			c.usable = map[string]string{}
		}
		spec, err := c.m.Spec("")
		if err == nil {
			err = runtime.UsableRouting(spec, en.Name, 0)
		}
		if err != nil {
			why = err.Error()
		}
		c.usable[en.Name] = why
		if why == "" {
			c.named = append(c.named, sendRouting{en.Name, lang.Start(na.X), lang.End(na.X)})
		}
	}
	if why != "" {
		c.errs = append(c.errs, errAt(na.X, "%s: the topology cannot take routing %s: %s", op.name, en.Name, why))
	}
}

// stmtText is a statement call as written, blanks collapsed, for its label;
// as formatted when its text is not at hand.
func stmtText(call *lang.Call) string {
	start, end := lang.Start(call), lang.End(call)
	if start.Src == nil || end.Src != start.Src || end.Offset <= start.Offset {
		return format.Expr(call)
	}
	return strings.Join(strings.Fields(start.Src.Text[start.Offset:end.Offset]), " ")
}
