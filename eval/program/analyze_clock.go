package program

import (
	"fmt"
	"math"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// Run-time values in the analytic answer (program_clock.go). Analyze has
// no clocks of its own: every clock is perfect, so now() reads the time
// the operation starts, until(T) holds the rank until T (busy waiting: its
// CPU is held, and the time counts as waiting), OpSet computes at once, a
// send carries its register as it starts and the receive it matches
// stores it.

// anClock is an analysis' registers.
type anClock struct {
	nregs int
	regs  []float64 // rank r's: regs[r*nregs:][:nregs]
	sent  []float64 // per operation: the value a send carries
}

// newAnClock returns nil when the schedule has no run-time values; their
// memory (a value per operation and per register of every rank) is
// checked against maxMem.
func newAnClock(s *lang.Schedule, maxMem int64) (*anClock, error) {
	if !s.UsesRunTimeValues() {
		return nil, nil
	}
	need := limits.Add(limits.Mul(int64(len(s.Ops)), 8), limits.Mul(int64(s.Ranks), int64(s.Regs), 8))
	if err := limits.Check(fmt.Sprintf("the run-time values of %d ranks", s.Ranks), need, maxMem); err != nil {
		return nil, err
	}
	return &anClock{nregs: int(s.Regs), regs: make([]float64, s.Ranks*int(s.Regs)), sent: make([]float64, len(s.Ops))}, nil
}

// start runs a clock operation that is ready at e.t, and records the value
// a send carries; it reports whether it dealt with the operation.
func (c *anClock) start(a *analysis, e anEvent) (bool, error) {
	s := a.s
	op := e.op
	o := &s.Ops[op]
	r := int(a.rankOf(op))
	k, has := o.RegOf()
	if has && k >= c.nregs || !has && (o.Kind == lang.OpNow || o.Kind == lang.OpUntil || o.Kind == lang.OpSet) {
		return true, fmt.Errorf("%s: operation %s of rank %d names register %d, which the schedule does not have (it has %d)", s.Name, s.LabelOf(int(op)), r, k, c.nregs)
	}
	regs := c.regs[r*c.nregs:][:c.nregs]
	switch o.Kind {
	case lang.OpSend:
		if has {
			c.sent[op] = regs[k]
		}
		return false, nil
	case lang.OpNow:
		regs[k] = seconds(e.t)
	case lang.OpSet:
		if o.Peer < 0 || int(o.Peer) >= len(s.Exprs) {
			return true, fmt.Errorf("%s: operation %s of rank %d computes expression %d, which the schedule does not have", s.Name, s.LabelOf(int(op)), r, o.Peer)
		}
		regs[k] = s.Exprs[o.Peer](regs)
	case lang.OpUntil:
		a.begin(op, e.t)
		a.started(op)
		t, ok := toPS(regs[k])
		if math.IsNaN(regs[k]) || math.IsInf(regs[k], 1) {
			return true, nil // a time that never comes: the rank waits, a deadlock
		}
		if !ok && regs[k] > 0 {
			return true, a.untilTooLate(op, r, regs[k])
		}
		end := max(e.t, t)
		// The rank polls its clock on its CPU until end; work of another
		// rank sharing the CPU that holds it longer keeps it held.
		if c := a.cpu(op); end > a.nexto[c] {
			a.occupy(c, end, op)
		}
		a.done(op, end)
		return true, nil
	default:
		return false, nil
	}
	a.begin(op, e.t)
	a.started(op)
	a.done(op, e.t)
	return true, nil
}

// received stores the value send carried in receive recv's register.
func (c *anClock) received(a *analysis, recv, send int32) {
	if k, has := a.s.Ops[recv].RegOf(); has && k < c.nregs {
		c.regs[int(a.rankOf(recv))*c.nregs+k] = c.sent[send]
	}
}

// fill puts the named registers' final values into res.
func (c *anClock) fill(a *analysis, res *runtime.ProgramResult) {
	for k, name := range a.s.RegNames {
		if name == "" || k >= c.nregs {
			continue
		}
		if res.Values == nil {
			res.Values = map[string][]float64{}
		}
		vals := make([]float64, a.s.Ranks)
		for r := range vals {
			vals[r] = c.regs[r*c.nregs+k]
		}
		res.Values[name] = vals
	}
}
