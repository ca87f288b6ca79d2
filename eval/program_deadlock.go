package eval

import (
	"fmt"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// deadlock runs the instantiated program abstractly, with every send
// completing as soon as it starts (as an eager protocol allows, the most
// any protocol does), every receive completing once the send match paired
// it with has started, and a collective once every rank has reached it.
// What cannot complete even so can never complete: the ranks wait for each
// other in a cycle, reported at the first of them with the others as
// notes. Nothing here depends on times, so it is decided before running;
// a program with a receive from any source is left to the executors.
// sendOf gives each receive's matched send (-1: none).
func (in *inst) deadlock(sendOf []int32) {
	s := in.s
	n := len(s.Ops)
	started := make([]bool, n)
	done := make([]bool, n)
	next := make([]int32, s.Ranks) // each rank's first operation not started
	for r := range next {
		next[r] = s.RankStart[r]
	}
	arrived := make([]int32, len(s.Colls))
	collOps := make([][]int32, len(s.Colls)) // pairs: operation, rank
	recvOf := make([]int32, n)               // a send's matched receive, -1 when none
	for i := range recvOf {
		recvOf[i] = -1
	}
	for i, send := range sendOf {
		if send >= 0 {
			recvOf[send] = int32(i)
		}
	}
	queue := make([]int, 0, s.Ranks)
	for r := 0; r < s.Ranks; r++ {
		queue = append(queue, r)
	}
	// complete marks operation i of rank r complete and wakes r.
	complete := func(i int32, r int) {
		if !done[i] {
			done[i] = true
			queue = append(queue, r)
		}
	}
	ready := func(i int32) bool {
		for _, d := range s.DepsOf(int(i)) {
			if d.Start && !started[d.Op] || !d.Start && !done[d.Op] {
				return false
			}
		}
		return true
	}
	for len(queue) > 0 {
		r := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for next[r] < s.RankStart[r+1] && ready(next[r]) {
			i := next[r]
			next[r]++
			started[i] = true
			op := &s.Ops[i]
			switch op.Kind {
			case lang.OpRecv:
				if send := sendOf[i]; send >= 0 && started[send] {
					done[i] = true
				}
			case lang.OpSend:
				done[i] = true
				if rv := recvOf[i]; rv >= 0 && started[rv] {
					complete(rv, int(op.Peer))
				}
			case lang.OpColl:
				k := op.Peer
				collOps[k] = append(collOps[k], i, int32(r))
				if arrived[k]++; int(arrived[k]) == s.Ranks {
					for j := 0; j < len(collOps[k]); j += 2 {
						complete(collOps[k][j], int(collOps[k][j+1]))
					}
					collOps[k] = nil
				}
			default:
				done[i] = true
			}
		}
	}
	// The stuck ranks: some operation of theirs never completes.
	waits := make([]int32, s.Ranks) // the first operation each rank cannot complete, -1 for none
	stuck := 0
	for r := 0; r < s.Ranks; r++ {
		waits[r] = -1
		for i := s.RankStart[r]; i < s.RankStart[r+1]; i++ {
			if !done[i] {
				waits[r] = in.blocker(i, started, done)
				stuck++
				break
			}
		}
	}
	if stuck == 0 {
		return
	}
	in.reportDeadlock(waits, sendOf, started, stuck)
}

// blocker is the operation that keeps operation i from completing: i
// itself once it has started, else the first prerequisite that is not
// satisfied, followed down.
func (in *inst) blocker(i int32, started, done []bool) int32 {
	for !started[i] {
		next := int32(-1)
		for _, d := range in.s.DepsOf(int(i)) {
			if d.Start && !started[d.Op] || !d.Start && !done[d.Op] {
				next = d.Op
				break
			}
		}
		if next < 0 {
			return i
		}
		i = next
	}
	return i
}

// reportDeadlock follows the waits from the first stuck rank to the rank
// each waits for, until one repeats, and reports that cycle.
func (in *inst) reportDeadlock(waits, sendOf []int32, started []bool, stuck int) {
	s := in.s
	first := 0
	for waits[first] < 0 {
		first++
	}
	// waitsFor is the rank whose progress op needs.
	waitsFor := func(op int32) int {
		o := &s.Ops[op]
		switch o.Kind {
		case lang.OpRecv:
			if send := sendOf[op]; send >= 0 {
				return s.RankOf(int(send))
			}
		case lang.OpColl:
			for r := 0; r < s.Ranks; r++ {
				if waits[r] >= 0 && (s.Ops[waits[r]].Kind != lang.OpColl || s.Ops[waits[r]].Peer != o.Peer || !started[waits[r]]) {
					return r
				}
			}
		}
		return -1
	}
	var chain []int
	seen := map[int]int{}
	for r := first; r >= 0 && waits[r] >= 0; r = waitsFor(waits[r]) {
		if k, again := seen[r]; again {
			chain = chain[k:]
			break
		}
		seen[r] = len(chain)
		chain = append(chain, r)
	}
	step := func(r int) string {
		op := waits[r]
		return fmt.Sprintf("rank %d waits in %s (line %d)", r, s.LabelOf(int(op)), s.Ops[op].Line)
	}
	var b strings.Builder
	b.WriteString("deadlock even if every send completed at once: ")
	for k, r := range chain {
		op := waits[r]
		if k == 0 {
			fmt.Fprintf(&b, "rank %d waits", r)
		} else {
			b.WriteString(", which waits")
		}
		fmt.Fprintf(&b, " in %s (line %d)", s.LabelOf(int(op)), s.Ops[op].Line)
		if len(chain) > 1 {
			fmt.Fprintf(&b, " for rank %d", chain[(k+1)%len(chain)])
		}
	}
	switch more := stuck - len(chain); {
	case more == 1:
		b.WriteString("; 1 more rank waits behind them")
	case more > 1:
		fmt.Fprintf(&b, "; %d more ranks wait behind them", more)
	}
	msg := b.String()
	d := lang.Errorf(in.labelPos(s.Ops[waits[chain[0]]].Label), "%s", msg)
	for _, r := range chain[1:] {
		d.Notes = append(d.Notes, lang.Note{Pos: in.labelPos(s.Ops[waits[r]].Label), Msg: step(r)})
	}
	in.fail(d)
}

// labelPos is where the statement an operation's label names stands.
func (in *inst) labelPos(label int32) lang.Pos {
	if label >= 0 && int(label) < len(in.cp.labelPos) {
		return in.cp.labelPos[label]
	}
	return in.cp.src.PosAt(0)
}
