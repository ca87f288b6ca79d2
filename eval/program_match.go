package eval

import (
	"fmt"

	"github.com/parasol-lang/parasol/lang"
)

// sendQueue holds the sends of one rank to another in program order.
type sendQueue struct {
	ops  []int32
	head int // ops before head are all matched
}

// take matches and returns the earliest unmatched send whose tag fits tag
// (any, for AnyTag), or -1.
func (q *sendQueue) take(s *lang.Schedule, matched []bool, tag int32) int32 {
	for i := q.head; i < len(q.ops); i++ {
		op := q.ops[i]
		if matched[op] {
			if i == q.head {
				q.head++
			}
			continue
		}
		if tag == lang.AnyTag || s.Ops[op].Tag == tag {
			matched[op] = true
			return op
		}
	}
	return -1
}

// match pairs every receive from a named rank with a send of that rank to
// it, as MPI orders messages: the earliest unmatched send with a fitting
// tag. A receive left over can never complete; it is reported at its
// statement with the ranks involved. A receive from any source is not
// matched here (which send it takes depends on timing), and a rank that has
// one leaves its other receives' sizes unknown too. A receive without a
// size takes that of the send it matches, when that is known.
//
// It returns each receive's matched send (-1: none) and whether every
// receive names its source, so that the matching is the one any run makes.
func (in *inst) match() (sendOf []int32, decided bool) {
	s := in.s
	sendOf = make([]int32, len(s.Ops))
	for i := range sendOf {
		sendOf[i] = -1
	}
	type pair struct{ src, dst int32 }
	sends := map[pair]*sendQueue{}
	matched := make([]bool, len(s.Ops))
	anySource := make([]bool, s.Ranks)
	for r := 0; r < s.Ranks; r++ {
		for i := s.RankStart[r]; i < s.RankStart[r+1]; i++ {
			op := &s.Ops[i]
			switch {
			case op.Kind == lang.OpSend:
				k := pair{int32(r), op.Peer}
				q := sends[k]
				if q == nil {
					q = &sendQueue{}
					sends[k] = q
				}
				q.ops = append(q.ops, i)
			case op.Kind == lang.OpRecv && op.Peer == lang.AnyRank:
				anySource[r] = true
			}
		}
	}
	// Per receive statement, the first rank stuck there is reported and
	// the others counted.
	type stuck struct {
		first *lang.Diagnostic
		more  int   // other ranks stuck here
		last  int32 // the last rank counted, as a rank may be stuck here in several iterations
	}
	stuckAt := map[int32]*stuck{}
	var order []int32
	for r := 0; r < s.Ranks; r++ {
		for i := s.RankStart[r]; i < s.RankStart[r+1]; i++ {
			op := &s.Ops[i]
			if op.Kind != lang.OpRecv || op.Peer == lang.AnyRank {
				continue
			}
			q := sends[pair{op.Peer, int32(r)}]
			send := int32(-1)
			if q != nil {
				send = q.take(s, matched, op.Tag)
			}
			if send >= 0 {
				sendOf[i] = send
				if op.Bytes < 0 && !anySource[r] {
					op.Bytes = s.Ops[send].Bytes
				}
				continue
			}
			if in.cut[op.Peer] {
				continue
			}
			if st := stuckAt[op.Label]; st != nil {
				if st.last != int32(r) {
					st.more++
					st.last = int32(r)
				}
				continue
			}
			stuckAt[op.Label] = &stuck{first: lang.Errorf(in.labelPos(op.Label), "%s", unmatched(s, r, op, q)), last: int32(r)}
			order = append(order, op.Label)
		}
	}
	for _, l := range order {
		st := stuckAt[l]
		if st.more > 0 {
			verb := "waits"
			if st.more > 1 {
				verb = "wait"
			}
			st.first.Msg += fmt.Sprintf(" (and %d more rank%s %s here for messages never sent)", st.more, plural(st.more), verb)
		}
		in.fail(st.first)
	}
	decided = len(order) == 0
	for i := range s.Ops {
		if s.Ops[i].Kind == lang.OpRecv && s.Ops[i].Bytes < 0 {
			s.Ops[i].Bytes = 0
		}
	}
	for _, any := range anySource {
		decided = decided && !any
	}
	return sendOf, decided
}

// unmatched says why rank r's receive op finds no send; q holds what the
// source sends r, nil for nothing.
func unmatched(s *lang.Schedule, r int, op *lang.SchedOp, q *sendQueue) string {
	what := fmt.Sprintf("rank %d waits in %s but rank %d", r, s.Labels[op.Label], op.Peer)
	if q == nil || len(q.ops) == 0 {
		return fmt.Sprintf("%s sends nothing to rank %d", what, r)
	}
	if op.Tag != lang.AnyTag {
		return fmt.Sprintf("%s sends rank %d no further message with tag %d (it sends %d message%s there in all)", what, r, op.Tag, len(q.ops), plural(len(q.ops)))
	}
	return fmt.Sprintf("%s sends only %d message%s to rank %d, all taken by earlier receives", what, len(q.ops), plural(len(q.ops)), r)
}
