package eval

import (
	"fmt"
	"math"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
)

// maxEstimateDepth is how deeply nested loops are estimated: each level
// walks its body up to three times, so deeper loops count for nothing
// rather than for 3^depth walks.
const maxEstimateDepth = 6

// estimate is what the program expands to, found before it is
// instantiated by walking each rank's body once without iterating its
// loops: a loop counts its trip count times what its body does at the
// loop's first, middle and last values, the median of the three (a body
// that does more on one iteration, as `if i == 1 { … }`, counts the less). Lets,
// loop bounds and conditions are computed for each rank as they would be;
// where one cannot be (an error, left for the instantiation to report),
// the rank counts what it reached. The count is thus about what the
// program makes, and rarely more.
type estimate struct {
	in     *inst
	ops    int64
	sends  int64
	byLoop map[*pnode]int64 // operations under each outermost loop
	depth  int
	failed bool
}

// estimateProgram refuses, before it is instantiated, a program whose
// schedule and answer would exceed the memory limit, positioned at the
// outermost loop that makes most of it. It returns nil when the estimate
// is within the limit, or when no loop makes it larger (the schedule's
// growth is checked as it is instantiated too).
func (in *inst) estimateProgram(procs [][]lang.Value) *lang.Diagnostic {
	e := &estimate{in: in, byLoop: map[*pnode]int64{}}
	st := in.fr.stack
	for r := 0; r < in.cp.ranks; r++ {
		if r&0xfff == 0xfff && in.ctx.Err() != nil {
			return nil // ScheduleContext returns ctx.Err()
		}
		for _, slot := range in.cp.timings {
			st[slot] = procs[r][slot]
		}
		st[in.cp.rankSlot] = lang.Num(float64(r))
		in.rank = r
		e.failed = false
		ops, sends := e.walk(in.cp.body, nil)
		e.ops, e.sends = limits.Add(e.ops, ops), limits.Add(e.sends, sends)
	}
	in.rank = 0
	ranks := int64(in.cp.ranks)
	deps := max(e.ops-ranks, 0)
	need := limits.Add(limits.Mul(e.ops, schedOpBytes), limits.Mul(ranks+1, 4),
		in.answer.Bytes(e.ops, e.sends, deps, ranks))
	limit := limits.Or(in.max)
	if need <= limit {
		return nil
	}
	var at *pnode
	for n, ops := range e.byLoop {
		if at == nil || ops > e.byLoop[at] || ops == e.byLoop[at] && n.pos.Offset < at.pos.Offset {
			at = n
		}
	}
	if at == nil {
		return nil
	}
	what := fmt.Sprintf("program %s on %d rank%s expands to about %d operations, which", in.cp.name, ranks, plural(int(ranks)), e.ops)
	if e.ops == math.MaxInt64 {
		what = fmt.Sprintf("program %s on %d rank%s expands to more than %d operations, which", in.cp.name, ranks, plural(int(ranks)), int64(math.MaxInt64))
	}
	return lang.Errorf(at.pos, "%v", &limits.TooLarge{What: what, Need: need, Limit: limit})
}

// walk counts the operations and sends list makes on the current rank;
// outer is the outermost loop it is in (nil at the top).
func (e *estimate) walk(list []*pnode, outer *pnode) (ops, sends int64) {
	for _, n := range list {
		if e.failed {
			return
		}
		switch n.kind {
		case pLet:
			v, ok := e.value(n.a)
			if !ok {
				return
			}
			e.in.fr.stack[n.slot] = v
		case pIf:
			c, ok := e.value(n.a)
			if !ok || c.Kind != lang.Bool {
				e.failed = true
				return
			}
			body := n.els
			if c.Truth() {
				body = n.body
			}
			o, s := e.walk(body, outer)
			ops, sends = limits.Add(ops, o), limits.Add(sends, s)
		case pFor:
			o, s := e.loop(n, outer)
			ops, sends = limits.Add(ops, o), limits.Add(sends, s)
		case pOp:
			ops++
			if n.op.kind == lang.OpSend {
				sends++
			}
		}
	}
	return
}

// loop counts a for loop: its trip count times the median of what its
// body makes at the first value, the middle one and the last (exact for
// a body that grows with the loop's value in a straight line, as a
// triangular loop nest; the less for a body that does more on one
// iteration only).
func (e *estimate) loop(n *pnode, outer *pnode) (ops, sends int64) {
	from, ok1 := e.value(n.a)
	to, ok2 := e.value(n.b)
	if !ok1 || !ok2 || !isWhole(from) || !isWhole(to) || e.depth >= maxEstimateDepth {
		e.failed = true
		return 0, 0
	}
	a, b := from.Num, to.Num
	if b < a {
		return 0, 0
	}
	trips := int64(min(b-a+1, math.MaxInt64/2))
	top := outer == nil
	if top {
		outer = n
	}
	e.depth++
	defer func() { e.depth-- }()
	var os, ss []int64
	at := []float64{a}
	if mid := math.Floor(a + (b-a)/2); mid != a && mid != b {
		at = append(at, mid)
	}
	if b != a {
		at = append(at, b)
	}
	for _, i := range at {
		e.in.fr.stack[n.slot] = lang.Num(i)
		o, s := e.walk(n.body, outer)
		os, ss = append(os, o), append(ss, s)
		if e.failed {
			break
		}
	}
	ops, sends = median(os), median(ss)
	ops, sends = limits.Mul(ops, trips), limits.Mul(sends, trips)
	if top {
		e.byLoop[n] = limits.Add(e.byLoop[n], ops)
	}
	return ops, sends
}

// value computes an expression for the current rank, quietly: an error
// is the instantiation's to report.
func (e *estimate) value(ce cexpr) (lang.Value, bool) {
	if ce.konst {
		return ce.val, true
	}
	fr := e.in.fr
	fr.base, fr.depth, fr.steps = 0, 0, 0
	v := ce.run(fr)
	if fr.err != nil {
		fr.err = nil
		e.failed = true
		return v, false
	}
	return v, true
}

// isWhole tells whether v is a plain whole number within a loop's range.
func isWhole(v lang.Value) bool {
	return v.Kind == lang.Number && v.Dim == (lang.Dim{}) && v.Num == math.Trunc(v.Num) &&
		v.Num >= math.MinInt32 && v.Num < math.MaxInt32
}

// median is the middle of up to three counts, the lesser of two.
func median(x []int64) int64 {
	switch len(x) {
	case 1:
		return x[0]
	case 2:
		return min(x[0], x[1])
	}
	return max(min(x[0], x[1]), min(max(x[0], x[1]), x[2]))
}
