package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
)

// Clocks and run-time values in a simulated program (seed 004 §3.2; see
// eval/program_clock.go for the language). Every processor has its local
// clock (NodeParams.Clock): at the start of a run each draws its offset
// and drift from the run's seed, on a generator of its own so that clocks
// change nothing else a seed decides; each read draws its jitter. Ranks
// on one processor share its clock. A rank's registers hold the values
// the program computes while it runs:
//
//   - OpNow reads the clock into a register, at once, using no CPU;
//   - OpSet computes a register from the rank's registers, at once;
//   - OpUntil ends when the clock, read without jitter (a tight loop of
//     reads whose error the jitter already models at the reads that
//     matter), reaches the register's time: at the true time
//     (T - offset) / (1 + drift), or at once if that has passed;
//   - a send takes its register's value when it is issued, and the
//     receive it matches stores it.
//
// Beside each register runs its true twin: the same computation fed with
// the true time at every read, which is what the program would have
// computed with perfect clocks at the same instants (ProgramResult's
// TrueValues), so that a measurement is shown beside the truth.

// progClock is a run's clocks and registers.
type progClock struct {
	nregs  int
	regs   []float64 // rank r's registers: regs[r*nregs:][:nregs]
	truth  []float64 // their true twins
	sent   []float64 // per operation: the value a send carries
	sentT  []float64 // and its true twin
	offset []float64 // per node: the clock's offset this run
	rate   []float64 // per node: 1 + its drift this run
	jitter []Dist
	rng    *rand.Rand
}

// clockSeed separates the clocks' generator from the network's.
const clockSeed = 0x5eed_c10c

// newProgClock prepares the run-time registers and clocks of a schedule,
// or returns nil without values: when the schedule has neither run-time
// values nor clock operations (lang.Schedule.UsesRunTimeValues, which
// RunProgram finds out as it counts the operations). Its memory (two values per operation, two per register of
// every rank) is checked against maxMem.
func newProgClock(p *progRun, values bool, seed uint64, maxMem int64) (*progClock, error) {
	x := p.x
	if !values {
		return nil, nil
	}
	need := limits.Add(limits.Mul(int64(len(x.Ops)), 16), limits.Mul(int64(x.Ranks), int64(x.Regs), 16), limits.Mul(int64(p.n.g.N()), 40))
	if err := limits.Check(fmt.Sprintf("the run-time values of %d ranks", x.Ranks), need, maxMem); err != nil {
		return nil, err
	}
	c := &progClock{nregs: int(x.Regs), rng: rand.New(rand.NewPCG(seed, clockSeed))}
	c.regs = make([]float64, x.Ranks*c.nregs)
	c.truth = make([]float64, x.Ranks*c.nregs)
	c.sent, c.sentT = make([]float64, len(x.Ops)), make([]float64, len(x.Ops))
	nn := p.n.g.N()
	c.offset, c.rate, c.jitter = make([]float64, nn), make([]float64, nn), make([]Dist, nn)
	for v := range nn {
		ck := p.n.nodeP(int32(v)).Clock
		c.offset[v] = ck.Offset.Draw(c.rng)
		c.rate[v] = ck.DrawRate(c.rng)
		c.jitter[v] = ck.Jitter
	}
	return c, nil
}

// read is node v's clock at true time t, with a read's jitter.
func (c *progClock) read(v int32, t float64) float64 {
	return t*c.rate[v] + c.offset[v] + c.jitter[v].Draw(c.rng)
}

// reg returns rank r's register k (from 0).
func (c *progClock) reg(r int32, k int) *float64 { return &c.regs[int(r)*c.nregs+k] }

// issue handles operation i of rank r when it is a clock operation (and
// then reports true), and records the value a send carries.
func (c *progClock) issue(p *progRun, i, r int32, op *lang.SchedOp) bool {
	k, has := op.RegOf()
	if has && k >= c.nregs || !has && (op.Kind == lang.OpNow || op.Kind == lang.OpUntil || op.Kind == lang.OpSet) {
		p.s.err = errBadReg(p, i, r, k, c.nregs)
		return true
	}
	now := p.s.now
	switch op.Kind {
	case lang.OpSend:
		if has {
			c.sent[i], c.sentT[i] = *c.reg(r, k), c.truth[int(r)*c.nregs+k]
		}
		return false
	case lang.OpNow:
		*c.reg(r, k) = c.read(p.node[r], now)
		c.truth[int(r)*c.nregs+k] = now
	case lang.OpSet:
		if op.Peer < 0 || int(op.Peer) >= len(p.x.Exprs) {
			p.s.err = errBadReg(p, i, r, k, c.nregs)
			return true
		}
		lo, hi := int(r)*c.nregs, int(r+1)*c.nregs
		f := p.x.Exprs[op.Peer]
		c.regs[lo+k], c.truth[lo+k] = f(c.regs[lo:hi]), f(c.truth[lo:hi])
	case lang.OpUntil:
		v := p.node[r]
		at := (*c.reg(r, k) - c.offset[v]) / c.rate[v]
		if math.IsInf(at, 1) || math.IsNaN(at) {
			// A time that never comes: the rank waits for ever, which
			// the run reports as a deadlock.
			p.ops[i].start = now
			p.started(i)
			return true
		}
		if at > now {
			p.ops[i].start = now
			p.started(i)
			p.sentAt(i, at) // completes op i at its time
			return true
		}
	default:
		return false
	}
	p.ops[i].start = now
	p.started(i)
	p.complete(i, now, p.ops[i].readyBy)
	return true
}

// received stores the value send carried in receive rc's register.
func (c *progClock) received(p *progRun, rc, send int32) {
	op := &p.x.Ops[rc]
	if k, has := op.RegOf(); has && k < c.nregs {
		j := p.rankOf(rc)*c.nregs + k
		c.regs[j], c.truth[j] = c.sent[send], c.sentT[send]
	}
}

// fill puts the named registers' final values, their true twins and the
// clocks drawn into res.
func (c *progClock) fill(p *progRun, res *ProgramResult) {
	perfect := true
	for _, v := range p.node {
		perfect = perfect && p.n.nodeP(v).Clock.Perfect()
	}
	if !perfect {
		res.Clocks = make([]RankClock, len(p.node))
		for r, v := range p.node {
			res.Clocks[r] = RankClock{Offset: c.offset[v], Drift: c.rate[v] - 1}
		}
	}
	for k, name := range p.x.RegNames {
		if name == "" || k >= c.nregs {
			continue
		}
		if res.Values == nil {
			res.Values = map[string][]float64{}
			if !perfect {
				res.TrueValues = map[string][]float64{}
			}
		}
		vals := make([]float64, p.x.Ranks)
		truth := make([]float64, p.x.Ranks)
		for r := range vals {
			vals[r], truth[r] = c.regs[r*c.nregs+k], c.truth[r*c.nregs+k]
		}
		res.Values[name] = vals
		if !perfect {
			res.TrueValues[name] = truth
		}
	}
}

func errBadReg(p *progRun, i, r int32, k, n int) error {
	return fmt.Errorf("operation %d of rank %d names register %d or an expression the schedule does not have (it has %d registers, %d expressions)",
		i-p.x.RankStart[r], r, k, n, len(p.x.Exprs))
}
