package trace

import (
	"bufio"
	"cmp"
	"io"
	"slices"
	"strconv"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/runtime"
)

// EstimateBurst is about how many bytes WriteBurst writes for bt.
func EstimateBurst(bt *runtime.BurstTrace) int64 {
	n := limits.Add(1024, limits.Mul(int64(len(bt.Messages)), 2*spanBytes+flowBytes))
	for _, l := range bt.Links {
		n = limits.Add(n, limits.Add(trackBytes, limits.Mul(int64(len(l.Intervals)), linkSpanBytes)))
	}
	return n
}

// CheckBurst is WriteBurst's size and memory checks alone.
func CheckBurst(o Options, bt *runtime.BurstTrace) error {
	limit := cmp.Or(o.MaxBytes, DefaultMaxBytes)
	if need := EstimateBurst(bt); need > limit {
		return &TooLargeError{Events: 4 * len(bt.Messages), Need: need, Limit: limit}
	}
	return limits.Check("placing the trace's message spans on tracks", limits.Mul(int64(2*len(bt.Messages)), int64(itemBytes)), o.MaxMemory)
}

// WriteBurst writes one run of an operation (runtime.Simulate with
// Options.Trace) as a trace: process 1, named title, has a track per
// processor that sends or receives, where each message is a span on its
// sender's track ("to 7, 1KB") and one on its receiver's ("from 3, 1KB"),
// both from when it was ready to go until its last byte was in, with an
// arrow from the first to the second; process 2 has the busiest wires
// (Options.MaxLinks), as Write's. Messages in flight together overlap:
// a processor gets as many tracks as that takes ("node 3 (2)", …).
func WriteBurst(w io.Writer, o Options, title string, bt *runtime.BurstTrace) error {
	if err := CheckBurst(o, bt); err != nil {
		return err
	}
	tw := &writer{w: bufio.NewWriterSize(w, 1<<16)}
	tw.raw(`{"traceEvents":[`)
	// Nodes by external id, each a "rank" of the placement.
	var ids []int
	for _, m := range bt.Messages {
		ids = append(ids, m.Src, m.Dst)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	index := func(id int) int { k, _ := slices.BinarySearch(ids, id); return k }
	items := make([]item, 0, 2*len(bt.Messages))
	for i, m := range bt.Messages {
		a, e := ps(m.Ready), max(ps(m.Done), ps(m.Ready))
		items = append(items, item{start: a, end: e, rank: index(m.Src), i: i}, item{start: a, end: e, rank: index(m.Dst), region: true, i: i})
	}
	lanes := place(items, len(ids))
	N := len(ids)
	tid := func(node, lane int) int { return lane*N + node + 1 }
	b := tw.meta(tw.buf[:0], 1, 0, "process_name", title)
	b = tw.metaIndex(b, 1, 0, "process_sort_index", 1)
	for k, id := range ids {
		for l := range max(lanes[k], 1) {
			name := "node " + strconv.Itoa(id)
			if l > 0 {
				name += " (" + strconv.Itoa(l+1) + ")"
			}
			b = tw.meta(b, 1, tid(k, l), "thread_name", name)
			b = tw.metaIndex(b, 1, tid(k, l), "thread_sort_index", tid(k, l))
		}
	}
	slices.SortStableFunc(items, func(x, y item) int { return cmp.Or(cmp.Compare(x.rank, y.rank), cmp.Compare(x.track, y.track)) })
	// Where each message's two spans went, for its arrow.
	from := make([]int32, len(bt.Messages))
	to := make([]int32, len(bt.Messages))
	for k, it := range items {
		m := &bt.Messages[it.i]
		name, cat := "to "+strconv.Itoa(m.Dst), "send"
		if it.region {
			name, cat = "from "+strconv.Itoa(m.Src), "recv"
			to[it.i] = int32(k)
		} else {
			from[it.i] = int32(k)
		}
		name += ", " + strconv.FormatInt(m.Bytes, 10) + " B"
		if !m.Delivered {
			name += " (never delivered)"
		}
		b = append(b[:0], `"ph":"X","pid":1,"tid":`...)
		b = strconv.AppendInt(b, int64(tid(it.rank, it.track)), 10)
		b = append(b, `,"ts":`...)
		b = us(b, it.start)
		b = append(b, `,"dur":`...)
		b = us(b, it.end-it.start)
		b = append(b, `,"cat":"`...)
		b = append(b, cat...)
		b = append(b, `","name":`...)
		b = strconv.AppendQuote(b, name)
		b = append(b, `,"args":{"message":`...)
		b = strconv.AppendInt(b, int64(it.i), 10)
		b = append(b, `,"hops":`...)
		b = strconv.AppendInt(b, int64(m.Hops), 10)
		b = append(b, `,"sender_busy_until_us":`...)
		b = us(b, ps(m.Sent))
		b = append(b, '}')
		tw.event(b)
	}
	for i := range bt.Messages {
		m := &bt.Messages[i]
		s := items[from[i]]
		if !m.Delivered || s.end <= s.start {
			continue // no span for the arrow to start or end in
		}
		tw.flowID++
		fl := runtime.Flow{From: m.Src, To: m.Dst, Bytes: m.Bytes}
		b = tw.flowEnd(b[:0], "s", 1, fl, true, items, int(from[i]), 0, 0, N)
		tw.event(b)
		b = tw.flowEnd(b[:0], "f", 1, fl, true, items, int(to[i]), 0, 0, N)
		tw.event(b)
	}
	tw.buf = b
	if len(bt.Links) > 0 && o.MaxLinks >= 0 {
		tw.linkTracks(2, "links", bt.Links, cmp.Or(o.MaxLinks, DefaultMaxLinks))
	}
	tw.raw("\n],\"displayTimeUnit\":\"ns\"}\n")
	if tw.err != nil {
		return tw.err
	}
	return tw.w.Flush()
}
