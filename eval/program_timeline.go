package eval

import (
	"cmp"
	"slices"
)

// WithWaits sorts a timeline's spans by rank and start and fills the gaps
// in each rank's busy time, up to its end, with waits, so that both
// executors draw the same kind of timeline from what they recorded.
func WithWaits(spans []Span, ranks []RankTimes) []Span {
	slices.SortStableFunc(spans, func(a, b Span) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Start, b.Start))
	})
	out := make([]Span, 0, 2*len(spans)+len(ranks))
	k := 0
	for r := range ranks {
		t := 0.0 // the end of the rank's busy time so far
		for ; k < len(spans) && spans[k].Rank == r; k++ {
			if spans[k].Start > t {
				out = append(out, Span{Rank: r, Kind: "wait", Start: t, End: spans[k].Start, Op: spans[k].Op})
			}
			out = append(out, spans[k])
			t = max(t, spans[k].End)
		}
		if ranks[r].End > t {
			out = append(out, Span{Rank: r, Kind: "wait", Start: t, End: ranks[r].End, Op: -1})
		}
	}
	return out
}
