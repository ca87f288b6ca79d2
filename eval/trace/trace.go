// Package trace writes a program's run as a trace in the Chrome trace-event
// JSON format ({"traceEvents": [...]}), which ui.perfetto.dev and
// chrome://tracing open: the place people already look at timelines.
//
// Each answer (analytic, simulated) is a process, side by side; each rank
// is a thread of it, its track holding complete events ("ph": "X") for
// its compute, send, recv and wait spans, named by the operation and its
// source line, and for each collective the rank took part in, with the
// spans of its messages nested inside. Each message is a flow ("ph": "s"
// on the sender, "f" on the receiver, one id): an arrow from the send's
// span to the receive's.
//
// A track's complete events must nest properly (Perfetto drops slices
// that overlap without nesting). Spans of one rank can overlap (a message
// taken in while the rank's computation is slowed down, GOAL's several
// CPUs), so each rank gets as many tracks as it needs: an event goes on
// the first of them where it nests, and the extra tracks are named
// "rank R (2)", …. Times are written in microseconds, as the format has
// them, from whole picoseconds, the language's resolution: six decimals,
// exact, so that nesting decided in picoseconds holds in the file.
//
// The events are written one at a time (no document is built in memory),
// after Estimate has been checked against a limit.
package trace

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// DefaultMaxBytes is the size of trace Write refuses to write when
// Options.MaxBytes is 0: 512 MiB, about three million spans, more than
// a trace viewer opens in a browser tab.
const DefaultMaxBytes = 512 << 20

// Options say what Write names events by and how large a trace it may
// write.
type Options struct {
	// Schedule is the schedule the answers ran (collectives not
	// expanded): spans are named by its operations' labels and lines.
	// Nil names them by kind alone.
	Schedule *lang.Schedule
	// MaxBytes bounds the trace's estimated size (0: DefaultMaxBytes).
	MaxBytes int64
	// MaxMemory bounds what Write holds while it places an answer's
	// spans on tracks (0: limits.Default()).
	MaxMemory int64
	// MaxLinks is how many of the busiest wires of an answer's Links get
	// a track (0: DefaultMaxLinks; -1: none).
	MaxLinks int
}

// DefaultMaxLinks is how many wires get a track by default: the busiest,
// which are where contention is; more would bury the ranks' tracks.
const DefaultMaxLinks = 64

// Bytes an event takes in the file, about: a span with its name and
// arguments, a flow's two ends, a track's metadata.
const (
	spanBytes  = 200
	flowBytes  = 2 * 120
	trackBytes = 3 * 110
	// A link's busy span.
	linkSpanBytes = 100
)

// Estimate is about how many bytes Write writes for answers.
func Estimate(answers ...*runtime.ProgramResult) int64 {
	n := int64(64)
	for _, a := range answers {
		if a == nil {
			continue
		}
		n = limits.Add(n, limits.Mul(int64(len(a.Timeline)+len(a.Regions)), spanBytes))
		n = limits.Add(n, limits.Mul(int64(len(a.Flows)), flowBytes))
		n = limits.Add(n, limits.Mul(int64(len(a.Ranks)+1), trackBytes))
		// All the links' intervals: the busiest are written, fewer.
		for _, l := range a.Links {
			n = limits.Add(n, limits.Add(trackBytes, limits.Mul(int64(len(l.Intervals)), linkSpanBytes)))
		}
	}
	return n
}

// Check is Write's size check alone: a *TooLargeError when the
// trace of answers would be larger than o.MaxBytes by Estimate.
func Check(o Options, answers ...*runtime.ProgramResult) error {
	limit := o.MaxBytes
	if limit == 0 {
		limit = DefaultMaxBytes
	}
	if need := Estimate(answers...); need > limit {
		return &TooLargeError{Events: count(answers), Need: need, Limit: limit}
	}
	// Placing an answer's spans holds an item and an index entry each.
	most := 0
	for _, a := range answers {
		if a != nil {
			most = max(most, len(a.Timeline)+len(a.Regions))
		}
	}
	return limits.Check(fmt.Sprintf("placing the trace's %d spans on tracks", most), limits.Mul(int64(most), itemBytes), o.MaxMemory)
}

// itemBytes is what placing a span holds: its item and its entry in the
// index flows find their spans by.
const itemBytes = int64(unsafe.Sizeof(item{})) + 64

// TooLargeError is a trace refused for its size: Need bytes by Estimate,
// for Events events, above Limit.
type TooLargeError struct {
	Events      int
	Need, Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the trace would take about %s (%d spans and message ends), above the limit of %s for a trace: trace fewer ranks or iterations, or write the spans as CSV with --timeline",
		limits.FormatSize(e.Need), e.Events, LimitText(e.Limit))
}

// LimitText says a trace size limit as the help does: in MiB when it is
// whole MiB (DefaultMaxBytes: "512 MiB").
func LimitText(n int64) string {
	if n > 0 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return limits.FormatSize(n)
}

// count is the number of events of answers' traces but for metadata.
func count(answers []*runtime.ProgramResult) int {
	n := 0
	for _, a := range answers {
		if a != nil {
			n += len(a.Timeline) + len(a.Regions) + 2*len(a.Flows)
		}
	}
	return n
}

// Write writes the answers (nil ones are skipped) as one trace to w, the
// i-th as process i+1 named by its Method. Each answer needs its Timeline,
// and its Flows and Regions for arrows and collectives
// (runtime.ProgramOptions Timeline and Flows). A trace larger than
// o.MaxBytes by Estimate is a *TooLargeError, before anything is written.
func Write(w io.Writer, o Options, answers ...*runtime.ProgramResult) error {
	if err := Check(o, answers...); err != nil {
		return err
	}
	tw := &writer{w: bufio.NewWriterSize(w, 1<<16), s: o.Schedule}
	tw.raw(`{"traceEvents":[`)
	for i, a := range answers {
		if a != nil {
			tw.answer(i+1, a)
		}
	}
	pid := len(answers)
	for _, a := range answers {
		if a != nil && len(a.Links) > 0 && o.MaxLinks >= 0 {
			pid++
			tw.linkTracks(pid, a.Method+" links", a.Links, cmp.Or(o.MaxLinks, DefaultMaxLinks))
		}
	}
	tw.raw("\n],\"displayTimeUnit\":\"ns\"}\n")
	if tw.err != nil {
		return tw.err
	}
	return tw.w.Flush()
}

// writer writes events, each on its own line, remembering the first error.
type writer struct {
	w      *bufio.Writer
	s      *lang.Schedule
	n      int // events written
	flowID int
	err    error
	buf    []byte
}

func (tw *writer) raw(s string) {
	if tw.err == nil {
		_, tw.err = tw.w.WriteString(s)
	}
}

// event writes one event; b holds its fields without the braces.
func (tw *writer) event(b []byte) {
	if tw.n > 0 {
		tw.raw(",")
	}
	tw.n++
	tw.raw("\n{")
	if tw.err == nil {
		_, tw.err = tw.w.Write(b)
	}
	tw.raw("}")
}

// item is one complete event of an answer before it is placed on a track.
type item struct {
	start, end int64 // picoseconds
	rank       int
	region     bool
	i          int // index into the answer's Timeline or Regions
	track      int // lane among the rank's tracks, once placed
}

// ps is a time in seconds as whole picoseconds.
func ps(t float64) int64 { return int64(math.Round(t * 1e12)) }

// us appends picoseconds p as microseconds with six decimals, exactly.
func us(b []byte, p int64) []byte {
	if p < 0 {
		b = append(b, '-')
		p = -p
	}
	b = strconv.AppendInt(b, p/1e6, 10)
	frac := p % 1e6
	if frac == 0 {
		return b
	}
	b = append(b, '.')
	d := strconv.AppendInt(nil, frac+1e6, 10)[1:] // six digits, leading zeros kept
	for len(d) > 0 && d[len(d)-1] == '0' {
		d = d[:len(d)-1]
	}
	return append(b, d...)
}

// answer writes one answer as process pid.
func (tw *writer) answer(pid int, a *runtime.ProgramResult) {
	items := make([]item, 0, len(a.Timeline)+len(a.Regions))
	for i, r := range a.Regions {
		items = append(items, item{start: ps(r.Start), end: max(ps(r.End), ps(r.Start)), rank: r.Rank, region: true, i: i})
	}
	for i, sp := range a.Timeline {
		items = append(items, item{start: ps(sp.Start), end: max(ps(sp.End), ps(sp.Start)), rank: sp.Rank, i: i})
	}
	lanes := place(items, len(a.Ranks))
	R := len(a.Ranks)
	tid := func(rank, lane int) int { return lane*R + rank + 1 }

	b := tw.buf[:0]
	b = append(b, `"ph":"M","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":0,"name":"process_name","args":{"name":`...)
	b = strconv.AppendQuote(b, a.Method)
	b = append(b, "}"...)
	tw.event(b)
	b = append(b[:0], `"ph":"M","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":0,"name":"process_sort_index","args":{"sort_index":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, "}"...)
	tw.event(b)
	for r := range a.Ranks {
		for l := range max(lanes[r], 1) {
			name := "rank " + strconv.Itoa(r)
			if l > 0 {
				name += " (" + strconv.Itoa(l+1) + ")"
			}
			b = append(b[:0], `"ph":"M","pid":`...)
			b = strconv.AppendInt(b, int64(pid), 10)
			b = append(b, `,"tid":`...)
			b = strconv.AppendInt(b, int64(tid(r, l)), 10)
			b = append(b, `,"name":"thread_name","args":{"name":`...)
			b = strconv.AppendQuote(b, name)
			b = append(b, "}"...)
			tw.event(b)
			b = append(b[:0], `"ph":"M","pid":`...)
			b = strconv.AppendInt(b, int64(pid), 10)
			b = append(b, `,"tid":`...)
			b = strconv.AppendInt(b, int64(tid(r, l)), 10)
			b = append(b, `,"name":"thread_sort_index","args":{"sort_index":`...)
			b = strconv.AppendInt(b, int64(tid(r, l)), 10)
			b = append(b, "}"...)
			tw.event(b)
		}
	}
	// Tracks in order, each in time order.
	slices.SortStableFunc(items, func(x, y item) int {
		return cmp.Or(cmp.Compare(x.rank, y.rank), cmp.Compare(x.track, y.track))
	})
	// Where each flow's ends bind: the track and time of the span that
	// begins at its send (kind send) and at its taking in (kind recv).
	type at struct {
		kind  string
		rank  int
		start int64
	}
	where := map[at]int{} // -> index into items
	for k, it := range items {
		if it.region {
			continue
		}
		sp := &a.Timeline[it.i]
		key := at{sp.Kind, sp.Rank, it.start}
		if _, ok := where[key]; !ok {
			where[key] = k
		}
	}
	for _, it := range items {
		b = tw.complete(b[:0], pid, tid(it.rank, it.track), it, a)
		tw.event(b)
	}
	for _, f := range a.Flows {
		from, okFrom := where[at{"send", f.From, ps(f.Sent)}]
		to, okTo := where[at{"recv", f.To, ps(f.Received)}]
		tw.flowID++
		b = tw.flowEnd(b[:0], "s", pid, f, okFrom, items, from, f.From, ps(f.Sent), R)
		tw.event(b)
		b = tw.flowEnd(b[:0], "f", pid, f, okTo, items, to, f.To, ps(f.Received), R)
		tw.event(b)
	}
	tw.buf = b
}

// linkTracks writes the most busy of links as process pid, named name
// ("simulated links"), a track per wire ("link 3: 0→1", busiest first) with a
// complete event ("cat": "link") for each time it was busy transmitting.
func (tw *writer) linkTracks(pid int, name string, links []runtime.LinkBusy, most int) {
	order := make([]int, len(links))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return -cmp.Compare(links[x].Busy, links[y].Busy) })
	if len(order) > most {
		order = order[:most]
	}
	if len(order) < len(links) {
		name += " (the " + strconv.Itoa(len(order)) + " busiest of " + strconv.Itoa(len(links)) + " busy wires)"
	}
	b := tw.meta(tw.buf[:0], pid, 0, "process_name", name)
	b = tw.metaIndex(b, pid, 0, "process_sort_index", pid)
	for k, i := range order {
		l := &links[i]
		wire := "link " + strconv.Itoa(l.Link) + ": " + strconv.Itoa(l.From)
		if l.To >= 0 {
			wire += "→" + strconv.Itoa(l.To)
		} else {
			wire += " (shared medium)"
		}
		b = tw.meta(b, pid, k+1, "thread_name", wire)
		b = tw.metaIndex(b, pid, k+1, "thread_sort_index", k+1)
		last := int64(math.MinInt64)
		for _, iv := range l.Intervals {
			start, end := ps(iv[0]), ps(iv[1])
			start = max(start, last) // merged in seconds, apart by less than a picosecond
			if end <= start {
				continue
			}
			last = end
			b = append(b[:0], `"ph":"X","pid":`...)
			b = strconv.AppendInt(b, int64(pid), 10)
			b = append(b, `,"tid":`...)
			b = strconv.AppendInt(b, int64(k+1), 10)
			b = append(b, `,"ts":`...)
			b = us(b, start)
			b = append(b, `,"dur":`...)
			b = us(b, end-start)
			b = append(b, `,"cat":"link","name":"busy"`...)
			tw.event(b)
		}
		b = b[:0]
	}
	tw.buf = b
}

// meta writes a metadata event naming a process or thread.
func (tw *writer) meta(b []byte, pid, tid int, kind, name string) []byte {
	b = strconv.AppendQuote(append(metaHead(b, pid, tid, kind), `"name":`...), name)
	tw.event(append(b, "}"...))
	return b[:0]
}

// metaIndex writes a metadata event ordering a process or thread.
func (tw *writer) metaIndex(b []byte, pid, tid int, kind string, index int) []byte {
	b = strconv.AppendInt(append(metaHead(b, pid, tid, kind), `"sort_index":`...), int64(index), 10)
	tw.event(append(b, "}"...))
	return b[:0]
}

// metaHead starts a metadata event of kind for a process or thread in b,
// up to the opening of its args.
func metaHead(b []byte, pid, tid int, kind string) []byte {
	b = append(b[:0], `"ph":"M","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"name":"`...)
	b = append(b, kind...)
	return append(b, `","args":{`...)
}

// place sorts items by rank and start and puts each on the first of its
// rank's tracks where it nests (starting after, or inside, what is open
// there), a new track when none; it returns the tracks of each rank.
func place(items []item, ranks int) []int {
	// By rank, then start; an enclosing event before what it encloses.
	slices.SortStableFunc(items, func(x, y item) int {
		return cmp.Or(cmp.Compare(x.rank, y.rank), cmp.Compare(x.start, y.start), -cmp.Compare(x.end, y.end),
			-cmp.Compare(b2i(x.region), b2i(y.region)))
	})
	lanes := make([]int, ranks) // tracks per rank
	var stacks [][]int64        // per lane of the rank at hand: the ends of its open events
	for k := 0; k < len(items); {
		r := items[k].rank
		stacks = stacks[:0]
		for ; k < len(items) && items[k].rank == r; k++ {
			it := &items[k]
			placed := false
			for l := range stacks {
				st := stacks[l]
				for len(st) > 0 && st[len(st)-1] <= it.start {
					st = st[:len(st)-1]
				}
				stacks[l] = st
				if len(st) == 0 || it.end <= st[len(st)-1] {
					stacks[l] = append(st, it.end)
					it.track, placed = l, true
					break
				}
			}
			if !placed {
				it.track = len(stacks)
				stacks = append(stacks, []int64{it.end})
			}
		}
		if r >= 0 && r < len(lanes) {
			lanes[r] = len(stacks)
		}
	}
	return lanes
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// complete appends the fields of item it's complete event.
func (tw *writer) complete(b []byte, pid, tid int, it item, a *runtime.ProgramResult) []byte {
	var name, cat string
	var rank, op int
	if it.region {
		rg := &a.Regions[it.i]
		cat, rank, op = "collective", rg.Rank, rg.Op
		name = tw.label(rank, op, rg.Name)
	} else {
		sp := &a.Timeline[it.i]
		cat, rank, op = sp.Kind, sp.Rank, sp.Op
		switch {
		case sp.Kind == "wait" && op >= 0:
			name = "wait: " + tw.label(rank, op, "")
		case sp.Kind == "wait":
			name = "wait (for the others to finish)"
		case sp.Kind == "recv" && op < 0:
			name = "recv (a message not yet received)"
		default:
			name = tw.label(rank, op, sp.Kind)
		}
	}
	b = append(b, `"ph":"X","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"ts":`...)
	b = us(b, it.start)
	b = append(b, `,"dur":`...)
	b = us(b, it.end-it.start)
	b = append(b, `,"cat":`...)
	b = strconv.AppendQuote(b, cat)
	b = append(b, `,"name":`...)
	b = strconv.AppendQuote(b, name)
	b = append(b, `,"args":{"op":`...)
	b = strconv.AppendInt(b, int64(op), 10)
	if line := tw.line(rank, op); line > 0 {
		b = append(b, `,"line":`...)
		b = strconv.AppendInt(b, int64(line), 10)
	}
	return append(b, '}')
}

// flowEnd appends the fields of one end of flow f: at the middle of the
// span it binds to (k into items, if ok), where Perfetto finds that span
// enclosing it, else at time t of rank's first track (inside).
func (tw *writer) flowEnd(b []byte, ph string, pid int, f runtime.Flow, ok bool, items []item, k, rank int, t int64, R int) []byte {
	tid := rank + 1
	if ok {
		it := items[k]
		tid = it.track*R + it.rank + 1
		t = it.start + (it.end-it.start)/2
	} else {
		t = inside(items, rank, t)
	}
	b = append(b, `"ph":"`...)
	b = append(b, ph...)
	b = append(b, `","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"ts":`...)
	b = us(b, t)
	b = append(b, `,"id":`...)
	b = strconv.AppendInt(b, int64(tw.flowID), 10)
	b = append(b, `,"cat":"message","name":"message"`...)
	if ph == "f" {
		b = append(b, `,"bp":"e"`...)
	}
	b = append(b, `,"args":{"bytes":`...)
	b = strconv.AppendInt(b, f.Bytes, 10)
	b = append(b, `,"from":`...)
	b = strconv.AppendInt(b, int64(f.From), 10)
	b = append(b, `,"to":`...)
	b = strconv.AppendInt(b, int64(f.To), 10)
	return append(b, '}')
}

// inside is time t on rank's first track moved, where it falls on the
// start of a span there, a picosecond into it, so that Perfetto finds the
// span enclosing it: an end with no span of its own (a message the
// analytic answer sends or takes in on a CPU other than the first, which
// its timeline does not draw) would bind to no slice. items are in track
// order, each track in time order.
func inside(items []item, rank int, t int64) int64 {
	lo, _ := slices.BinarySearchFunc(items, rank, func(it item, r int) int {
		return cmp.Or(cmp.Compare(it.rank, r), cmp.Compare(it.track, 0))
	})
	hi := lo
	for hi < len(items) && items[hi].rank == rank && items[hi].track == 0 {
		hi++
	}
	// the span of the first track that starts at t, if any
	j, found := slices.BinarySearchFunc(items[lo:hi], t, func(it item, t int64) int { return cmp.Compare(it.start, t) })
	if found && items[lo+j].end-t > 1 {
		return t + 1
	}
	return t
}

// label is rank's operation op's label with its line ("send(8B, to: 3)
// line 12"), or def (or the operation's kind) without a schedule.
func (tw *writer) label(rank, op int, def string) string {
	g, ok := tw.global(rank, op)
	if !ok {
		if def == "" {
			return "op " + strconv.Itoa(op)
		}
		return def
	}
	l := tw.s.LabelOf(g)
	if line := tw.s.Ops[g].Line; line > 0 {
		l += " line " + strconv.Itoa(int(line))
	}
	return l
}

func (tw *writer) line(rank, op int) int {
	if g, ok := tw.global(rank, op); ok {
		return int(tw.s.Ops[g].Line)
	}
	return 0
}

// global is rank's operation op as an index into the schedule's Ops.
func (tw *writer) global(rank, op int) (int, bool) {
	s := tw.s
	if s == nil || op < 0 || rank < 0 || rank >= s.Ranks {
		return 0, false
	}
	g := int(s.RankStart[rank]) + op
	if g >= int(s.RankStart[rank+1]) {
		return 0, false
	}
	return g, true
}
