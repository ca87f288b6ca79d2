package eval

import (
	"fmt"

	"github.com/parasol-lang/parasol/lang"
)

// sendQueues are the sends of one rank to another in program order, one
// queue per tag.
type sendQueues struct {
	byTag map[int32][]int32
	total int
}

// take removes and returns the earliest send whose tag fits tag (any, for
// AnyTag), or -1.
func (q *sendQueues) take(tag int32) int32 {
	if tag != lang.AnyTag {
		list := q.byTag[tag]
		if len(list) == 0 {
			return -1
		}
		q.byTag[tag] = list[1:]
		return list[0]
	}
	best, bestTag := int32(-1), int32(0)
	for t, list := range q.byTag {
		if len(list) > 0 && (best < 0 || list[0] < best) {
			best, bestTag = list[0], t
		}
	}
	if best >= 0 {
		q.byTag[bestTag] = q.byTag[bestTag][1:]
	}
	return best
}

// match pairs every receive from a named rank with a send of that rank to
// it, as MPI orders messages: the earliest unmatched send with a fitting
// tag. A receive left over can never complete; it is reported at its
// statement with the ranks involved. A receive from any source is not
// matched here (which send it takes depends on timing), and a rank that has
// one leaves its other receives' sizes unknown too. A receive without a
// size takes that of the send it matches, when that is known.
func (in *inst) match() {
	s := in.s
	type pair struct{ src, dst int32 }
	sends := map[pair]*sendQueues{}
	anySource := make([]bool, s.Ranks)
	for r := 0; r < s.Ranks; r++ {
		for i := s.RankStart[r]; i < s.RankStart[r+1]; i++ {
			op := &s.Ops[i]
			switch {
			case op.Kind == lang.OpSend:
				k := pair{int32(r), op.Peer}
				q := sends[k]
				if q == nil {
					q = &sendQueues{byTag: map[int32][]int32{}}
					sends[k] = q
				}
				q.byTag[op.Tag] = append(q.byTag[op.Tag], i)
				q.total++
			case op.Kind == lang.OpRecv && op.Peer == lang.AnyRank:
				anySource[r] = true
			}
		}
	}
	// Per receive statement, the first rank stuck there is reported and
	// the others counted.
	type stuck struct {
		first *lang.Diagnostic
		more  int
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
				send = q.take(op.Tag)
			}
			if send >= 0 {
				if op.Bytes < 0 && !anySource[r] {
					op.Bytes = s.Ops[send].Bytes
				}
				continue
			}
			if st := stuckAt[op.Label]; st != nil {
				st.more++
				continue
			}
			stuckAt[op.Label] = &stuck{first: lang.Errorf(in.cp.labelPos[op.Label], "%s", unmatched(s, r, op, q))}
			order = append(order, op.Label)
		}
	}
	for _, l := range order {
		st := stuckAt[l]
		if st.more > 0 {
			st.first.Msg += fmt.Sprintf(" (and %d more rank%s wait here for messages never sent)", st.more, plural(st.more))
		}
		in.fail(st.first)
	}
	for i := range s.Ops {
		if s.Ops[i].Kind == lang.OpRecv && s.Ops[i].Bytes < 0 {
			s.Ops[i].Bytes = 0
		}
	}
}

// unmatched says why rank r's receive op finds no send; q holds what the
// source sends r, nil for nothing.
func unmatched(s *lang.Schedule, r int, op *lang.SchedOp, q *sendQueues) string {
	what := fmt.Sprintf("rank %d waits in %s but rank %d", r, s.Labels[op.Label], op.Peer)
	if q == nil || q.total == 0 {
		return fmt.Sprintf("%s sends nothing to rank %d", what, r)
	}
	if op.Tag != lang.AnyTag {
		return fmt.Sprintf("%s sends rank %d no further message with tag %d (it sends %d message%s there in all)", what, r, op.Tag, q.total, plural(q.total))
	}
	return fmt.Sprintf("%s sends only %d message%s to rank %d, all taken by earlier receives", what, q.total, plural(q.total), r)
}
