package runtime

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/parasol-lang/parasol/internal/limits"
)

// LinkBusy is when one wire (a direction of a link, or a shared medium's
// one wire) was busy transmitting during a program's simulated run, for a
// trace: Link is the link's index in the topology, From and To its ends'
// external node ids (To -1 on a shared medium), Busy its total busy time
// and Intervals the times it was busy, in order, touching transmissions
// merged (a message's packets back to back are one interval).
type LinkBusy struct {
	Link, From, To int
	Busy           float64
	Intervals      [][2]float64
}

// busyLog holds each wire's busy intervals as the simulation makes them
// (sim.busy): an interval that starts where the wire's last one ended
// extends it, so a stream of packets costs one. It holds at most max
// intervals; beyond, full is set and the run's answer is an error.
type busyLog struct {
	iv   [][]float64 // per wire: start, end, start, end, …
	n    int64
	max  int64
	full bool
}

// busyIntervalBytes is one interval in the log and in the answer.
const busyIntervalBytes = 2 * 16

func newBusyLog(wires int32, max int64) *busyLog {
	return &busyLog{iv: make([][]float64, wires), max: max}
}

func (b *busyLog) add(w int32, start, end float64) {
	l := b.iv[w]
	if k := len(l); k > 0 && start <= l[k-1] && start >= l[k-2] {
		l[k-1] = max(l[k-1], end)
		return
	}
	if b.n >= b.max {
		b.full = true
		return
	}
	b.n++
	b.iv[w] = append(l, start, end)
}

// links is the log as the answer has it: the wires that were busy, in
// wire order, each's intervals sorted and merged.
func (b *busyLog) links(n *network, name string, limit int64) ([]LinkBusy, error) {
	if b.full {
		return nil, &limits.TooLarge{What: fmt.Sprintf("the links' busy times of the trace of %s (%d intervals so far)", name, b.n),
			Need: limits.Mul(b.n+1, busyIntervalBytes), Limit: limit}
	}
	var out []LinkBusy
	for w, l := range b.iv {
		if len(l) == 0 {
			continue
		}
		from, to, ok := n.wireEnds(w)
		if !ok {
			continue
		}
		iv := make([][2]float64, 0, len(l)/2)
		for k := 0; k < len(l); k += 2 {
			iv = append(iv, [2]float64{l[k], l[k+1]})
		}
		slices.SortStableFunc(iv, func(x, y [2]float64) int { return cmp.Compare(x[0], y[0]) })
		merged := iv[:1]
		for _, x := range iv[1:] {
			last := &merged[len(merged)-1]
			if x[0] <= last[1] {
				last[1] = max(last[1], x[1])
				continue
			}
			merged = append(merged, x)
		}
		lb := LinkBusy{Link: w / 2, From: from, To: to, Intervals: merged}
		for _, x := range merged {
			lb.Busy += x[1] - x[0]
		}
		out = append(out, lb)
	}
	return out, nil
}
