package eval

import (
	"fmt"
	"math"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
)

// Run-time values: what a program knows only while it runs, so that the
// clock synchronisation and the timed barriers of seed 004 §3 are written
// as programs. A program reads its rank's local clock with now(), waits
// until the clock reads a time with until(T), sends a time with a message
// (send(0B, to: n, value: t)) and receives it (let t = recv(from: n)):
//
//	let t0 = recv(from: n)
//	let t1 = now() - offset
//	let offset = offset + (t1 - t0/2 - t2/2)
//
// The schedule is static (lang.Schedule), so such values live in
// registers, one per name, that the executors fill: OpNow reads the clock
// into one, OpSet computes one from others with a closure compiled here,
// OpUntil waits on one, and a send carries one that its receive stores.
// A let is a run-time value when its value mentions now(), a received
// value or another run-time value; a name that holds a run-time value
// anywhere in the program is a variable of the rank, and a let of it in
// an inner block (a loop's body) updates it rather than hiding it, so a
// loop can accumulate (Algorithm 2's offset += Δ). Run-time values combine
// with + - * / and with values known before running (rank, parameters,
// 2^i); they decide no control flow (if, for), sizes or ranks, since the
// schedule is fixed before the run. Message values are times.

// pclock is the run-time part of an operation: the register it writes or
// reads, the expression an OpSet computes, and the operations that must
// run first (clock reads and computations inside an expression).
type pclock struct {
	reg int // register + 1; 0: none
	set *rtnode
	pre []*pop
}

// rtnode is a run-time expression: a register, a value known when the
// program is instantiated (computed per rank), or arithmetic on them.
type rtnode struct {
	op   byte // 'r' register, 'k' known value, '+', '-', '*', '/', 'n' negation
	reg  int  // 'r': the register (from 0)
	ce   cexpr
	pos  lang.Pos
	x, y *rtnode
}

// clockComp is the run-time part of compiling one program.
type clockComp struct {
	names    map[string]bool // names that hold run-time values somewhere
	regNames []string        // each register's name, "" for a temporary
}

// newReg allocates a register for a name ("" for a temporary) and returns
// it plus one.
func (k *clockComp) newReg(name string) int {
	k.regNames = append(k.regNames, name)
	return len(k.regNames)
}

func init() {
	stmtSpecs["until"] = stmtSpec{usage: "until(T), T a time of the rank's clock (now() + 1us)"}
	s := stmtSpecs["send"]
	s.named = append(s.named, "value")
	s.usage = "send(BYTES, to: R [, tag: T] [, routing: NAME] [, value: TIME])"
	stmtSpecs["send"] = s
}

// runtimeNames finds the names a program's lets give run-time values,
// following lets of lets until nothing changes.
func runtimeNames(body []lang.Stmt) map[string]bool {
	names := map[string]bool{}
	var lets []*lang.Let
	var walk func([]lang.Stmt)
	walk = func(list []lang.Stmt) {
		for _, s := range list {
			switch s := s.(type) {
			case *lang.Let:
				lets = append(lets, s)
			case *lang.For:
				walk(s.Body)
			case *lang.If:
				walk(s.Then)
				walk(s.Else)
			}
		}
	}
	walk(body)
	for changed := true; changed; {
		changed = false
		for _, l := range lets {
			if names[l.Name] {
				continue
			}
			if isRecvCall(l.Value) || mentionsRuntime(l.Value, func(id string) bool { return names[id] }) {
				names[l.Name] = true
				changed = true
			}
		}
	}
	return names
}

func isRecvCall(e lang.Expr) bool {
	c, ok := e.(*lang.Call)
	if !ok {
		return false
	}
	id, ok := c.Fn.(*lang.Ident)
	return ok && id.Name == "recv"
}

// isNow reports whether e is a call of now().
func isNow(e lang.Expr) bool {
	c, ok := e.(*lang.Call)
	if !ok {
		return false
	}
	id, ok := c.Fn.(*lang.Ident)
	return ok && id.Name == "now"
}

// mentionsRuntime reports whether e calls now() or names a value for which
// runtime is true.
func mentionsRuntime(e lang.Expr, runtime func(string) bool) bool {
	switch x := e.(type) {
	case *lang.Ident:
		return runtime(x.Name)
	case *lang.Unary:
		return mentionsRuntime(x.X, runtime)
	case *lang.Binary:
		return mentionsRuntime(x.X, runtime) || mentionsRuntime(x.Y, runtime)
	case *lang.Cond:
		return mentionsRuntime(x.If, runtime) || mentionsRuntime(x.Then, runtime) || mentionsRuntime(x.Else, runtime)
	case *lang.Call:
		if isNow(x) {
			return true
		}
		for _, a := range x.Args {
			if mentionsRuntime(a, runtime) {
				return true
			}
		}
	case *lang.NamedArg:
		return mentionsRuntime(x.X, runtime)
	case *lang.Sum:
		return mentionsRuntime(x.From, runtime) || mentionsRuntime(x.To, runtime) || mentionsRuntime(x.Body, runtime)
	}
	return false
}

// isRuntime reports whether e, compiled where it stands, needs run-time
// values.
func (c *pcomp) isRuntime(e lang.Expr) bool {
	return mentionsRuntime(e, func(name string) bool {
		n, ok := c.lookup(name)
		return ok && n.reg > 0
	})
}

// label adds a label for operations a statement makes.
func (c *pcomp) label(text string, pos lang.Pos) int32 {
	c.labels = append(c.labels, short(text))
	c.labelPos = append(c.labelPos, pos)
	return int32(len(c.labels) - 1)
}

// clockLet compiles a let of a run-time value; ok is false when s is an
// ordinary let.
func (c *pcomp) clockLet(s *lang.Let) (*pnode, bool) {
	if !c.clk.names[s.Name] {
		return nil, false
	}
	prev, found := c.lookup(s.Name)
	reg := 0
	if found && prev.reg > 0 {
		reg = prev.reg
	}
	text := "let " + s.Name + " = " + format.Expr(s.Value)
	var op *pop
	dim, known := lang.TimeDim, true
	if isRecvCall(s.Value) && !c.shadowed("recv") {
		if op = c.call(s.Value.(*lang.Call), -1); op != nil {
			op.text = short(text)
			c.labels[op.label] = op.text
		}
	} else {
		pc := &pclock{}
		root, d, k, ok := c.rtCompile(s.Value, pc)
		dim, known = d, k
		if ok {
			op = &pop{name: "let", kind: lang.OpSet, handle: -1, cpuSlot: -1, pos: s.Pos, line: int32(s.Pos.Line), text: short(text), clk: pc}
			op.label = c.label(text, s.Pos)
			if len(pc.pre) > 0 && isNow(s.Value) {
				// let t = now(): the read itself, into t.
				op = pc.pre[0]
				op.text, op.pos = short(text), s.Pos
				c.labels[op.label] = op.text
				op.clk.pre = nil
			} else {
				pc.set = root
			}
		}
	}
	if reg != 0 && known && prev.l.known && prev.l.dim != dim {
		c.errs.Add(s.Pos, "%s holds a %s, set at %s; this let gives it a %s", s.Name, prev.l.dim.Name(), prev.pos, dim.Name())
		return nil, true
	}
	if reg == 0 {
		reg = c.clk.newReg(s.Name)
		c.declare(pname{name: s.Name, slot: -1, reg: reg, pos: s.Pos, l: local{known: known, kind: lang.Number, dim: dim}})
	}
	if op == nil {
		return nil, true
	}
	if op.clk == nil {
		op.clk = &pclock{}
	}
	op.clk.reg = reg
	return &pnode{kind: pOp, pos: s.Pos, op: op}, true
}

// shadowed reports whether a statement's name is hidden by a local.
func (c *pcomp) shadowed(name string) bool {
	_, ok := c.lookup(name)
	return ok
}

// clockDo compiles until(T), a send with value:, and reports now() used
// as a statement; ok is false for every other statement.
func (c *pcomp) clockDo(s *lang.Do) (*pnode, bool) {
	id, isIdent := s.Call.Fn.(*lang.Ident)
	if !isIdent || c.shadowed(id.Name) {
		return nil, false
	}
	switch id.Name {
	case "now":
		c.errs.Add(s.Pos, "now() gives the rank's clock time, a value: keep it with let t = now(), or wait on it with until(now() + 1us)")
		return nil, true
	case "until":
		if len(s.Call.Args) != 1 {
			c.errs.Add(s.Pos, "until takes one time: %s", stmtSpecs["until"].usage)
			return nil, true
		}
		if na, named := s.Call.Args[0].(*lang.NamedArg); named {
			c.errs.Add(na.Pos, "until takes no argument %s:; %s", na.Name, stmtSpecs["until"].usage)
			return nil, true
		}
		pc := &pclock{}
		reg, ok := c.rtRegister(s.Call.Args[0], pc, "until")
		if !ok {
			return nil, true
		}
		pc.reg = reg
		op := &pop{name: "until", kind: lang.OpUntil, handle: -1, cpuSlot: -1, pos: s.Pos, line: int32(s.Pos.Line), text: short(format.Expr(s.Call)), clk: pc}
		op.label = c.label(op.text, s.Pos)
		return &pnode{kind: pOp, pos: s.Pos, op: op}, true
	case "send":
		var value *lang.NamedArg
		args := make([]lang.Expr, 0, len(s.Call.Args))
		for _, a := range s.Call.Args {
			if na, ok := a.(*lang.NamedArg); ok && na.Name == "value" {
				if value != nil {
					c.errs.Add(na.Pos, "value: is given twice")
					return nil, true
				}
				value = na
				continue
			}
			args = append(args, a)
		}
		if value == nil {
			return nil, false
		}
		pc := &pclock{}
		reg, ok := c.rtRegister(value.X, pc, "send's value:")
		op := c.call(&lang.Call{Pos: s.Call.Pos, Fn: s.Call.Fn, Args: args}, -1)
		if !ok || op == nil {
			return nil, true
		}
		op.text = short(format.Expr(s.Call))
		c.labels[op.label] = op.text
		pc.reg = reg
		op.clk = pc
		return &pnode{kind: pOp, pos: s.Pos, op: op}, true
	}
	return nil, false
}

// rtRegister compiles a time that an operation reads into a register:
// the register of a name as it is, else a computation before the
// operation (its pre).
func (c *pcomp) rtRegister(e lang.Expr, pc *pclock, what string) (int, bool) {
	root, dim, known, ok := c.rtCompile(e, pc)
	if !ok {
		return 0, false
	}
	if known && dim != lang.TimeDim {
		c.errs = append(c.errs, errAt(e, "%s takes a time of the rank's clock, got a %s", what, dim.Name()))
		return 0, false
	}
	if root.op == 'r' {
		return root.reg + 1, true
	}
	tmp := c.clk.newReg("")
	set := &pop{name: "let", kind: lang.OpSet, handle: -1, cpuSlot: -1, pos: lang.Start(e), line: int32(lang.Start(e).Line),
		text: short(format.Expr(e)), clk: &pclock{reg: tmp, set: root}}
	set.label = c.label(set.text, set.pos)
	pc.pre = append(pc.pre, set)
	return tmp, true
}

// rtCompile compiles a run-time expression; clock reads in it become
// operations in pc.pre. dim is its unit, when known before running.
func (c *pcomp) rtCompile(e lang.Expr, pc *pclock) (n *rtnode, dim lang.Dim, known, ok bool) {
	pos := lang.Start(e)
	if !c.isRuntime(e) {
		ce, good := c.expr(e)
		if !good {
			return nil, dim, false, false
		}
		if ce.known && ce.kind != lang.Number {
			c.errs = append(c.errs, errAt(e, "a run-time value combines with numbers and times, not %s", describeKind(ce)))
			return nil, dim, false, false
		}
		return &rtnode{op: 'k', ce: ce, pos: pos}, ce.dim, ce.known, true
	}
	switch x := e.(type) {
	case *lang.Ident:
		nm, _ := c.lookup(x.Name)
		return &rtnode{op: 'r', reg: nm.reg - 1, pos: pos}, nm.l.dim, nm.l.known, true
	case *lang.Call:
		if isNow(x) && !c.shadowed("now") {
			if len(x.Args) != 0 {
				c.errs = append(c.errs, errAt(x, "now takes no arguments: now() is the rank's clock time"))
				return nil, dim, false, false
			}
			reg := c.clk.newReg("")
			rd := &pop{name: "now", kind: lang.OpNow, handle: -1, cpuSlot: -1, pos: x.Pos, line: int32(x.Pos.Line), text: "now()", clk: &pclock{reg: reg}}
			rd.label = c.label("now()", x.Pos)
			pc.pre = append(pc.pre, rd)
			return &rtnode{op: 'r', reg: reg - 1, pos: pos}, lang.TimeDim, true, true
		}
	case *lang.Unary:
		if x.Op == lang.Sub {
			a, d, k, good := c.rtCompile(x.X, pc)
			if !good {
				return nil, dim, false, false
			}
			return &rtnode{op: 'n', x: a, pos: pos}, d, k, true
		}
	case *lang.Binary:
		switch x.Op {
		case lang.Add, lang.Sub, lang.Mul, lang.Div:
			a, da, ka, good1 := c.rtCompile(x.X, pc)
			b, db, kb, good2 := c.rtCompile(x.Y, pc)
			if !good1 || !good2 {
				return nil, dim, false, false
			}
			n := &rtnode{op: x.Op.String()[0], x: a, y: b, pos: x.Pos}
			switch x.Op {
			case lang.Add, lang.Sub:
				if ka && kb && da != db {
					c.errs.Add(x.Pos, "%s of a %s and a %s: run-time values add and subtract in one unit", x.Op, da.Name(), db.Name())
					return nil, dim, false, false
				}
				return n, da, ka && kb, true
			case lang.Mul:
				return n, da.Mul(db), ka && kb, true
			}
			return n, da.Div(db), ka && kb, true
		}
	}
	c.errs = append(c.errs, errAt(e, "%s needs values known only while the program runs (now(), received values and lets of them), which combine with + - * / only", lang.Excerpt(format.Expr(e))))
	return nil, dim, false, false
}

// runtimeUse is the error for a run-time value where the schedule needs
// a value before running.
func runtimeUse(x *lang.Ident) *lang.Diagnostic {
	return errAt(x, "%s is known only while the program runs (it comes from now() or a receive); it can go into a let, until(…) or send's value:, but cannot decide an if, a loop, a size, a rank or a compute time, which are fixed before the run", x.Name)
}

// clockOp fills the run-time part of an operation for the current rank,
// after emitting the operations that must run first.
func (in *inst) clockOp(op *pop, so *lang.SchedOp) bool {
	pc := op.clk
	for _, q := range pc.pre {
		if !in.emit(q) {
			return false
		}
	}
	so.Reg = int32(pc.reg)
	if in.s.Regs == 0 {
		in.s.Regs, in.s.RegNames = int32(len(in.cp.regNames)), in.cp.regNames
	}
	if op.kind != lang.OpSet {
		return true
	}
	if n := len(in.s.Exprs); n%exprCheckEvery == 0 {
		// The closures grow with the program's run: check them and the
		// operations so far against the limit, as the operations alone are.
		need := limits.Add(limits.Mul(int64(len(in.s.Ops))+1, schedOpBytes), limits.Mul(int64(n)+exprCheckEvery, exprBytes))
		if err := limits.Check(fmt.Sprintf("program %s on %d ranks with its run-time values", in.cp.name, in.cp.ranks), need, in.max); err != nil {
			in.fail(lang.Errorf(op.pos, "%v", err))
			in.stop = true
			return false
		}
	}
	f, ok := in.rtFunc(pc.set)
	if !ok {
		return false
	}
	so.Peer = int32(len(in.s.Exprs))
	in.s.Exprs = append(in.s.Exprs, f)
	return true
}

// exprBytes bounds what one OpSet's closures cost (a few nodes of about
// 48 bytes: Algorithm 2's Δ has nine), checked every exprCheckEvery.
const (
	exprBytes      = 512
	exprCheckEvery = 1 << 12
)

// rtFunc builds the closure of a run-time expression for the current rank,
// with its known values computed, sharing the closures made before.
func (in *inst) rtFunc(n *rtnode) (func([]float64) float64, bool) {
	id, ok := in.rtClosure(n)
	if !ok {
		return nil, false
	}
	return in.rt.funcs[id], true
}

// rtClosures shares closures among the operations that compute alike: a
// register, a known value, or an operator on closures already made. Every
// rank numbers its registers alike and known values mostly repeat
// (parameters, loop counters, 2^i), so a program of many ranks makes few
// distinct closures rather than a tree of them per operation and rank.
type rtClosures struct {
	funcs  []func([]float64) float64
	byNode map[rtKey]int32
}

// rtKey is a closure by what it computes: op with its register, the bits
// of its known value (so that -0 is not 0), or its operands' ids.
type rtKey struct {
	op   byte
	a, b int64
}

func (in *inst) rtShare(k rtKey, make func() func([]float64) float64) int32 {
	if id, ok := in.rt.byNode[k]; ok {
		return id
	}
	if in.rt.byNode == nil {
		in.rt.byNode = map[rtKey]int32{}
	}
	id := int32(len(in.rt.funcs))
	in.rt.funcs = append(in.rt.funcs, make())
	in.rt.byNode[k] = id
	return id
}

func (in *inst) rtClosure(n *rtnode) (int32, bool) {
	switch n.op {
	case 'r':
		r := n.reg
		return in.rtShare(rtKey{op: 'r', a: int64(r)}, func() func([]float64) float64 {
			return func(regs []float64) float64 { return regs[r] }
		}), true
	case 'k':
		v, ok := in.value(n.ce)
		if !ok {
			return 0, false
		}
		if v.Kind != lang.Number || math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
			in.fail(lang.Errorf(n.pos, "a run-time value combines with finite numbers and times, got %s on rank %d", describeValue(v), in.rank))
			return 0, false
		}
		k := v.Num
		return in.rtShare(rtKey{op: 'k', a: int64(math.Float64bits(k))}, func() func([]float64) float64 {
			return func([]float64) float64 { return k }
		}), true
	case 'n':
		x, ok := in.rtClosure(n.x)
		if !ok {
			return 0, false
		}
		return in.rtShare(rtKey{op: 'n', a: int64(x)}, func() func([]float64) float64 {
			a := in.rt.funcs[x]
			return func(regs []float64) float64 { return -a(regs) }
		}), true
	}
	x, ok1 := in.rtClosure(n.x)
	y, ok2 := in.rtClosure(n.y)
	if !ok1 || !ok2 {
		return 0, false
	}
	return in.rtShare(rtKey{op: n.op, a: int64(x), b: int64(y)}, func() func([]float64) float64 {
		a, b := in.rt.funcs[x], in.rt.funcs[y]
		switch n.op {
		case '+':
			return func(regs []float64) float64 { return a(regs) + b(regs) }
		case '-':
			return func(regs []float64) float64 { return a(regs) - b(regs) }
		case '*':
			return func(regs []float64) float64 { return a(regs) * b(regs) }
		}
		// Division (rtCompile makes no other operator). By zero it gives
		// ±Inf or NaN, which until treats as never and a send carries as
		// it is.
		return func(regs []float64) float64 { return a(regs) / b(regs) }
	}), true
}
