package eval

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/parasol-lang/parasol/internal/hugepages"
	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// Schedule instantiates the program on m: it runs the body once per rank
// (loops, conditions, lets) and records each operation with the
// operations it waits for. A blocking operation waits for the completion of
// the rank's previous operation; an operation after an isend or irecv only
// for its start, until wait(h) makes the next operation wait for the
// request's completion. Each collective call becomes one OpColl per rank,
// the k-th collective of every rank sharing Colls[k]. Receives that no
// send can ever match are errors at the receive; what cannot be decided
// before running (a receive from any source) is left to the executors.
func (p *Program) Schedule(m *Machine, o ScheduleOptions) (*lang.Schedule, error) {
	return p.ScheduleContext(context.Background(), m, o)
}

// ScheduleContext is Schedule that gives up with ctx.Err() once ctx is
// cancelled: a large program takes seconds to instantiate, and Ctrl-C
// should not have to wait for it.
func (p *Program) ScheduleContext(ctx context.Context, m *Machine, o ScheduleOptions) (*lang.Schedule, error) {
	if o.Ranks < 0 || o.Ranks > MaxRanks {
		return nil, fmt.Errorf("%d ranks: the rank count is between 1 and %d", o.Ranks, MaxRanks)
	}
	if o.Map != nil && o.Ranks == 0 {
		o.Ranks = len(o.Map)
	}
	cp, err := p.compile(m, o)
	if err != nil {
		return nil, err
	}
	mapping := o.Map
	if mapping == nil {
		if mapping, err = MapRanks(m, cp.ranks, "linear", 0); err != nil {
			return nil, err
		}
	}
	if len(mapping) != cp.ranks {
		return nil, fmt.Errorf("the mapping places %d rank%s; the program runs on %d", len(mapping), plural(len(mapping)), cp.ranks)
	}
	in := &inst{ctx: ctx, cp: cp, max: m.MaxMemory(), answer: o.Answer, reported: map[lang.Pos]bool{}}
	procs, err := in.processors(m, mapping)
	if err != nil {
		return nil, err
	}
	in.s = &lang.Schedule{Name: cp.name, Ranks: cp.ranks, Labels: cp.labels, LabelPos: cp.labelPos, Src: cp.src,
		RankStart: make([]int32, 1, cp.ranks+1), DepStart: []int32{0}, Map: append([]int(nil), mapping...)}
	in.fr = &frame{stack: make([]lang.Value, cp.nslots+64)}
	if d := in.estimateProgram(procs); d != nil {
		return nil, lang.Diagnostics{d}.Err()
	}
	in.cut = make([]bool, cp.ranks)
	for r := 0; r < cp.ranks && !in.stop; r++ {
		in.cut[r] = !in.run(r, procs[r])
		in.s.RankStart = append(in.s.RankStart, int32(len(in.s.Ops)))
	}
	if !in.stop {
		in.checkCollectives()
		sendOf, decided := in.match()
		if decided && len(in.errs) == 0 {
			in.deadlock(sendOf)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := in.errs.Err(); err != nil {
		return nil, err
	}
	return in.s, nil
}

// inst is one instantiation under way.
type inst struct {
	ctx      context.Context // polled every 65536 steps
	cp       *compiled
	s        *lang.Schedule
	fr       *frame
	errs     lang.Diagnostics
	reported map[lang.Pos]bool
	stop     bool
	// cut marks the ranks whose run stopped at an error: what they would
	// have sent or called after it is missing, so receives from them and
	// collectives they miss are no errors of their own.
	cut     []bool
	steps   int64
	max     int64 // memory limit
	nextMem int   // op count at which memory is checked next
	answer  runtime.Footprint
	sends   int64
	rt      rtClosures // program_clock.go

	// The rank being run.
	rank        int
	prev        int32 // its last operation, -1 before the first
	prevStarted bool  // prev is an isend or irecv: later operations wait for its start only
	pending     []int32
	outstanding []int32
	handles     []int32
	ncoll       int
	collRank    []int32 // the rank that first called each collective
	collPos     []lang.Pos
	collText    []string
	collBad     bool // a mismatch is reported: counts no longer tell
}

// fail reports an error once per position; after MaxErrors the
// instantiation stops.
func (in *inst) fail(d *lang.Diagnostic) {
	if in.reported[d.Pos] {
		return
	}
	in.reported[d.Pos] = true
	in.errs = append(in.errs, d)
	if len(in.errs) >= 20 {
		in.stop = true
	}
}

// processors finds each rank's processor and, once per processor type,
// the timings the program reads of it.
func (in *inst) processors(m *Machine, mapping []int) ([][]lang.Value, error) {
	t, err := m.programTopology(in.cp.src.PosAt(0))
	if err != nil {
		return nil, unwrapDep(err)
	}
	byType := map[*NodeType][]lang.Value{}
	byObj := map[*object]*NodeType{}
	out := make([][]lang.Value, len(mapping))
	var errs lang.Diagnostics
	for r, id := range mapping {
		v, ok := t.Graph.Index(id)
		if !ok || t.Graph.NodeKind(v) != 0 {
			return nil, fmt.Errorf("rank %d maps to %d, which is no processor of topology %s", r, id, t.Label)
		}
		nt := t.NodeType(v)
		if nt == nil {
			return nil, fmt.Errorf("rank %d maps to node %d, which has no processor type", r, id)
		}
		if first := byObj[nt.obj]; first != nil {
			nt = first
		} else {
			byObj[nt.obj] = nt
		}
		vals, done := byType[nt]
		if !done {
			vals = make([]lang.Value, in.cp.nslots)
			for what, slot := range in.cp.timings {
				val, d := timingOf(nt, what, in.cp.timingPos[what], r)
				if d != nil {
					if end, ok := in.cp.timingEnd[what]; ok && end.IsValid() {
						d.Span(end)
					}
					errs = append(errs, d)
					continue
				}
				vals[slot] = val
			}
			byType[nt] = vals
		}
		out[r] = vals
	}
	return out, errs.Err()
}

// timingOf reads a timing of a processor type: "float_timings.mul", or
// "createjob" and "jobswitch" for spawn and switch.
func timingOf(nt *NodeType, what string, at lang.Pos, rank int) (lang.Value, *lang.Diagnostic) {
	block, name, inBlock := strings.Cut(what, ".")
	obj := nt.obj
	if inBlock {
		obj = nt.obj.child(block, "")
		if obj == nil {
			var has []string
			for _, c := range nt.obj.children {
				if c.kind != "processorcache" && c.kind != "combinations" {
					has = append(has, c.kind)
				}
			}
			msg := "it has no timing blocks"
			if len(has) > 0 {
				msg = "it has " + strings.Join(has, ", ")
			}
			return lang.Value{}, lang.Errorf(at, "processor %s (rank %d runs on it) has no %s block, so %s has no cost there; %s", nt.Label, rank, block, what, msg)
		}
	} else {
		name = block
	}
	f := obj.field(name)
	if f == nil || f.decl.IsFunc() {
		if inBlock {
			return lang.Value{}, lang.Errorf(at, "processor %s (rank %d runs on it) has no %s%s; its %s has %s", nt.Label, rank, what, lang.DidYouMean(name, obj.fieldNames()), block, strings.Join(obj.fieldNames(), ", "))
		}
		return lang.Value{}, lang.Errorf(at, "processor %s (rank %d runs on it) has no %s, which %s costs", nt.Label, rank, name, map[string]string{"createjob": "spawn()", "jobswitch": "switch()"}[name])
	}
	if err := f.failure(); err != nil {
		return lang.Value{}, lang.Errorf(at, "%s of processor %s has an error: %v", what, nt.Label, unwrapDep(err))
	}
	if f.val.Kind != lang.Number || f.val.Dim != lang.TimeDim {
		return lang.Value{}, lang.Errorf(at, "%s of processor %s is %s, not a time", what, nt.Label, describeValue(f.val))
	}
	return f.val, nil
}

// value runs a compiled expression for the current rank.
func (in *inst) value(ce cexpr) (lang.Value, bool) {
	if ce.konst {
		return ce.val, true
	}
	fr := in.fr
	fr.base, fr.depth, fr.steps = 0, 0, 0
	v := ce.run(fr)
	if fr.err != nil {
		in.fail(fr.err)
		fr.err = nil
		return v, false
	}
	return v, true
}

// whole reads a value as a whole number in [lo, hi).
func (in *inst) whole(v lang.Value, at lang.Pos, what string, lo, hi int64) (int64, bool) {
	if v.Kind != lang.Number || v.Dim != (lang.Dim{}) || v.Num != math.Trunc(v.Num) || math.IsInf(v.Num, 0) {
		in.fail(lang.Errorf(at, "%s must be a whole number, got %s on rank %d", what, describeValue(v), in.rank))
		return 0, false
	}
	if v.Num < float64(lo) || v.Num >= float64(hi) {
		in.fail(lang.Errorf(at, "%s is %s on rank %d; it must be from %d to %d", what, lang.FormatNumber(v.Num), in.rank, lo, hi-1))
		return 0, false
	}
	return int64(v.Num), true
}

// run runs the body for rank r; false when an error stopped it.
func (in *inst) run(r int, procVals []lang.Value) bool {
	in.rank, in.prev, in.prevStarted, in.ncoll = r, -1, false, 0
	in.pending, in.outstanding = in.pending[:0], in.outstanding[:0]
	if cap(in.handles) < in.cp.nhandles {
		in.handles = make([]int32, in.cp.nhandles)
	}
	in.handles = in.handles[:in.cp.nhandles]
	for i := range in.handles {
		in.handles[i] = -1
	}
	st := in.fr.stack
	for _, slot := range in.cp.timings {
		st[slot] = procVals[slot]
	}
	st[in.cp.rankSlot] = lang.Num(float64(r))
	return in.exec(in.cp.body)
}

// maxProgramSteps is MaxProgramSteps, lowered by tests.
var maxProgramSteps int64 = MaxProgramSteps

// step counts a statement or loop iteration against the step limit.
func (in *inst) step(n *pnode) bool {
	if in.steps++; in.steps&0xffff == 0 && in.ctx.Err() != nil {
		in.stop = true // ScheduleContext returns ctx.Err()
		return false
	}
	if in.steps <= maxProgramSteps {
		return true
	}
	in.fail(lang.Errorf(n.pos, "the program runs more than %d statements and loop iterations on its %d ranks together; is a loop too long?", maxProgramSteps, in.cp.ranks))
	in.stop = true
	return false
}

// exec runs statements for the current rank; false stops the run.
func (in *inst) exec(list []*pnode) bool {
	for _, n := range list {
		if !in.step(n) {
			return false
		}
		switch n.kind {
		case pLet:
			v, ok := in.value(n.a)
			if !ok {
				return false
			}
			in.fr.stack[n.slot] = v
		case pFor:
			from, ok1 := in.value(n.a)
			to, ok2 := in.value(n.b)
			if !ok1 || !ok2 {
				return false
			}
			a, ok1 := in.whole(from, n.apos, "the loop's first value", math.MinInt32, math.MaxInt32)
			b, ok2 := in.whole(to, n.bpos, "the loop's last value", math.MinInt32, math.MaxInt32)
			if !ok1 || !ok2 {
				return false
			}
			for i := a; i <= b; i++ {
				in.fr.stack[n.slot] = lang.Num(float64(i))
				if !in.exec(n.body) {
					return false
				}
				if !in.step(n) {
					return false
				}
			}
		case pIf:
			c, ok := in.value(n.a)
			if !ok {
				return false
			}
			if c.Kind != lang.Bool {
				in.fail(lang.Errorf(n.apos, "the condition of if must be true or false, got %s on rank %d", describeValue(c), in.rank))
				return false
			}
			body := n.els
			if c.Truth() {
				body = n.body
			}
			if !in.exec(body) {
				return false
			}
		case pWait:
			if h := in.handles[n.slot]; h >= 0 {
				in.pending = append(in.pending, h)
				in.outstanding = removeOp(in.outstanding, h)
				in.handles[n.slot] = -1
			}
		case pWaitAll:
			in.pending = append(in.pending, in.outstanding...)
			in.outstanding = in.outstanding[:0]
			for i := range in.handles {
				in.handles[i] = -1
			}
		case pOp:
			if !in.emit(n.op) {
				return false
			}
		}
		if in.stop {
			return false
		}
	}
	return true
}

func removeOp(list []int32, op int32) []int32 {
	for i, x := range list {
		if x == op {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// emit evaluates an operation's arguments for the current rank and adds
// it to the schedule with its prerequisites.
func (in *inst) emit(op *pop) bool {
	so := lang.SchedOp{Label: op.label, Line: op.line, Kind: op.kind}
	if op.clk != nil && !in.clockOp(op, &so) { // program_clock.go
		return false
	}
	ok := true
	switch op.kind {
	case lang.OpCalc:
		if op.cpuSlot >= 0 {
			so.Time = in.fr.stack[op.cpuSlot].Num
			break
		}
		v, good := in.value(op.args[rTime].ce)
		if !good {
			return false
		}
		if v.Kind != lang.Number || v.Dim != lang.TimeDim || v.Num < 0 || math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
			in.fail(lang.Errorf(op.args[rTime].pos, "compute takes a time of 0s or more, got %s on rank %d", describeValue(v), in.rank))
			return false
		}
		if msg := runtime.TimeBound.Check("compute", v.Num); msg != "" {
			in.fail(lang.Errorf(op.args[rTime].pos, "%s, on rank %d", msg, in.rank))
			return false
		}
		so.Time = v.Num
	case lang.OpSend:
		so.Bytes, ok = in.bytes(op, rBytes)
		if ok {
			so.Peer, ok = in.peer(op, rTo)
		}
		if ok && op.args[rTag].set {
			so.Tag, ok = in.tag(op)
		}
		if op.routing != "" {
			so.Routing = in.routingOf(op.routing)
		}
	case lang.OpRecv:
		so.Peer, so.Tag, so.Bytes = lang.AnyRank, lang.AnyTag, -1
		if op.args[rFrom].set {
			so.Peer, ok = in.peer(op, rFrom)
		}
		if ok && op.args[rTag].set {
			so.Tag, ok = in.tag(op)
		}
		if ok && op.args[rSize].set {
			so.Bytes, ok = in.bytes(op, rSize)
		}
	case lang.OpColl:
		c := lang.Collective{Name: op.name, Algorithm: op.algorithm, Ranks: int32(in.cp.ranks), Line: op.line}
		if op.args[rBytes].set {
			c.Bytes, ok = in.bytes(op, rBytes)
		}
		if ok && op.args[rRoot].set {
			c.Root, ok = in.peer(op, rRoot)
		}
		if !ok {
			return false
		}
		so.Peer, ok = in.collective(c, op)
		so.Bytes = c.Bytes
	}
	if !ok {
		return false
	}
	if len(in.s.Ops) >= in.nextMem && !in.reserve(op) {
		return false
	}
	i := int32(len(in.s.Ops))
	in.s.Ops = append(in.s.Ops, so)
	if so.Kind == lang.OpSend {
		in.sends++
	}
	if in.prev >= 0 {
		// Waiting for the previous operation's start is waiting for its
		// completion when the program waits for it (wait(h) just before).
		start := in.prevStarted && !slices.Contains(in.pending, in.prev)
		in.s.Deps = append(in.s.Deps, lang.SchedDep{Op: in.prev, Start: start})
	}
	for _, h := range in.pending {
		if h != in.prev {
			in.s.Deps = append(in.s.Deps, lang.SchedDep{Op: h})
		}
	}
	in.pending = in.pending[:0]
	in.s.DepStart = append(in.s.DepStart, int32(len(in.s.Deps)))
	in.prev, in.prevStarted = i, op.nonblocking
	if op.nonblocking {
		// A handle rebound (in a loop) loses its request's name; waitall
		// still waits for it.
		in.outstanding = append(in.outstanding, i)
		in.handles[op.handle] = i
	}
	return true
}

// reserve checks the memory the schedule so far and its answer take
// against the limit, and grows the schedule's lists ahead: once the first
// rank has run, to what every rank doing as much would need (no more than
// the limit allows at the rate so far), so that appending does not copy
// them over and over.
func (in *inst) reserve(op *pop) bool {
	s := in.s
	n := len(s.Ops) + 1
	need := in.need(n)
	limit := limits.Or(in.max)
	fixed := in.answer.Bytes(0, 0, 0, int64(in.cp.ranks)) + 4*int64(len(s.RankStart))
	if need > limit {
		what := fmt.Sprintf("program %s on %d ranks", in.cp.name, in.cp.ranks)
		if in.answer != (runtime.Footprint{}) {
			what = fmt.Sprintf("%s, with its answer, at %d operations so far,", what, n)
		}
		// Stopped just past the limit, need says nothing of the limit to
		// set: past the first rank, the ranks done tell what the whole
		// would take, if the others do as much.
		done := int64(s.RankStart[in.rank])
		if whole := float64(done) / float64(max(in.rank, 1)) * float64(in.cp.ranks); in.rank > 0 && whole > float64(n) {
			need = max(need, int64(min(float64(fixed)+float64(need-fixed)*whole/float64(n), math.MaxInt64/2)))
			first := "its first rank"
			if in.rank > 1 {
				first = fmt.Sprintf("its first %d ranks", in.rank)
			}
			if in.answer == (runtime.Footprint{}) {
				what += fmt.Sprintf(", at %d operations so far,", n)
			}
			what = fmt.Sprintf("%s of about %d at the rate of %s,", strings.TrimSuffix(what, ","), int64(whole), first)
		}
		in.fail(lang.Errorf(op.pos, "%v", &limits.TooLarge{What: what, Need: need, Limit: limit}))
		in.stop = true
		return false
	}
	// How many operations the limit allows at the rate so far.
	fit := float64(limit-fixed) / (float64(max(need-fixed, 1)) / float64(n))
	// The lists are grown only when full, and then to all they will need
	// as far as can be told: every copy leaves the old lists behind until
	// they are collected.
	if cap(s.Ops) < n {
		want := n + memCheckEvery
		if in.rank > 0 {
			perRank := n/in.rank + 1
			want = max(want, perRank*in.cp.ranks+perRank)
		}
		// A check's worth more than fit, so that the limit is reached
		// before the lists are full.
		want = int(min(float64(want), fit+memCheckEvery, math.MaxInt32))
		want = max(want, n+memCheckEvery, min(cap(s.Ops)+cap(s.Ops)/4, math.MaxInt32))
		s.Ops = append(hugepages.Make[lang.SchedOp](0, want), s.Ops...)
		s.DepStart = append(make([]int32, 0, want+1), s.DepStart...)
	}
	if len(s.Deps)+memCheckEvery > cap(s.Deps) {
		// Dependencies at the rate so far, with a little room.
		want := cap(s.Ops) + cap(s.Ops)/4
		if n > memCheckEvery {
			want = int(min(float64(len(s.Deps))/float64(n)*float64(cap(s.Ops))*1.02, math.MaxInt32))
		}
		want = max(want, len(s.Deps)+memCheckEvery, min(cap(s.Deps)+cap(s.Deps)/4, math.MaxInt32))
		s.Deps = append(hugepages.Make[lang.SchedDep](0, want), s.Deps...)
	}
	// The next check comes by the time the limit is reached at the rate
	// so far, or the lists are full.
	in.nextMem = int(min(float64(n+memCheckEvery), max(fit, float64(n+1)), float64(cap(s.Ops))))
	return true
}

// need is what the schedule takes with n operations, and its answer with
// it.
func (in *inst) need(n int) int64 {
	s := in.s
	deps := int64(len(s.Deps))
	return limits.Add(runtime.ScheduleBytes(s), limits.Mul(int64(n-len(s.Ops)), schedOpBytes),
		in.answer.Bytes(int64(n), in.sends, deps, int64(in.cp.ranks)))
}

// bytes reads a size argument: a size, or a plain number of bytes.
func (in *inst) bytes(op *pop, r role) (int64, bool) {
	v, ok := in.value(op.args[r].ce)
	if !ok {
		return 0, false
	}
	if msg := roleMismatch(r, v.Kind, v.Dim); msg != "" || !(v.Num >= 0 && v.Num <= 1<<53) {
		in.fail(lang.Errorf(op.args[r].pos, "%s: the size must be a size from 0B to 2^53 B, got %s on rank %d", op.name, describeValue(v), in.rank))
		return 0, false
	}
	return int64(math.Round(v.Num)), true
}

// peer reads a rank argument (to:, from:, root:).
func (in *inst) peer(op *pop, r role) (int32, bool) {
	v, ok := in.value(op.args[r].ce)
	if !ok {
		return 0, false
	}
	if v.Kind == lang.Number && v.Dim == (lang.Dim{}) && v.Num >= 0 && v.Num < float64(in.cp.ranks) && v.Num == math.Trunc(v.Num) {
		return int32(v.Num), true
	}
	what := map[role]string{rTo: "to:", rFrom: "from:", rRoot: "root:"}[r]
	_, ok = in.whole(v, op.args[r].pos, op.name+": "+what, 0, int64(in.cp.ranks))
	return 0, ok
}

// tag reads a tag argument.
func (in *inst) tag(op *pop) (int32, bool) {
	v, ok := in.value(op.args[rTag].ce)
	if !ok {
		return 0, false
	}
	if v.Kind == lang.Number && v.Dim == (lang.Dim{}) && v.Num >= 0 && v.Num < math.MaxInt32 && v.Num == math.Trunc(v.Num) {
		return int32(v.Num), true
	}
	n, ok := in.whole(v, op.args[rTag].pos, op.name+": the tag", 0, math.MaxInt32)
	return int32(n), ok
}

// collective joins the current rank's next collective call to the
// schedule's collective of that number, which every rank must call alike.
func (in *inst) collective(c lang.Collective, op *pop) (int32, bool) {
	k := in.ncoll
	in.ncoll++
	if k == len(in.s.Colls) {
		in.s.Colls = append(in.s.Colls, c)
		in.collRank = append(in.collRank, int32(in.rank))
		in.collPos = append(in.collPos, op.pos)
		in.collText = append(in.collText, op.text)
		return int32(k), true
	}
	first := in.s.Colls[k]
	if first.Name != c.Name || first.Algorithm != c.Algorithm || first.Bytes != c.Bytes || first.Root != c.Root {
		d := lang.Errorf(op.pos, "collective number %d of rank %d is %s with %s, but of rank %d %s with %s: every rank calls the same collectives in the same order",
			k+1, in.rank, op.text, collArgs(c), in.collRank[k], in.collText[k], collArgs(first))
		d.Notes = append(d.Notes, lang.Note{Pos: in.collPos[k], Msg: fmt.Sprintf("rank %d's call", in.collRank[k])})
		in.fail(d)
		in.collBad = true
		return 0, false
	}
	return int32(k), true
}

func collArgs(c lang.Collective) string {
	s := fmt.Sprintf("%dB", c.Bytes)
	switch c.Name {
	case "bcast", "reduce", "scatter", "gather":
		s += fmt.Sprintf(", root %d", c.Root)
	}
	if c.Algorithm != "" {
		s += ", algorithm " + c.Algorithm
	}
	return s
}

// checkCollectives reports ranks that call fewer collectives than others:
// the collective they skip waits for them forever.
func (in *inst) checkCollectives() {
	if in.collBad {
		return
	}
	s := in.s
	count := make([]int, s.Ranks)
	for i := range s.Ops {
		if s.Ops[i].Kind == lang.OpColl {
			count[s.RankOf(i)]++
		}
	}
	for r, n := range count {
		if n < len(s.Colls) && !in.cut[r] {
			in.fail(lang.Errorf(in.collPos[n], "rank %d never calls collective number %d, %s, which rank %d calls here: it would wait for rank %d forever", r, n+1, in.collText[n], in.collRank[n], r))
		}
	}
}

// routingOf is the number a send's operation names routing by: its index
// in the schedule's Routings plus one, added there the first time. (The
// registry has fewer than the 255 an operation can name.)
func (in *inst) routingOf(name string) uint8 {
	i := slices.Index(in.s.Routings, name)
	if i < 0 {
		i = len(in.s.Routings)
		in.s.Routings = append(in.s.Routings, name)
	}
	return uint8(i + 1)
}
