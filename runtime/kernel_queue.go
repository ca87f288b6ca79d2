package runtime

import (
	"cmp"
	"math"
	"slices"

	"github.com/parasol-lang/parasol/internal/hugepages"
)

// evQueue holds pending events and pops them in (time, sequence) order,
// exactly the order of a heap on event.before, so results do not depend on
// how it is built.
//
// Events are kept in one list per distinct time (timeLists: appends and
// pops, no comparisons) while at most maxTimes distinct times are pending,
// as on a network whose times are sums of a few latencies and
// transmission times, however large. Past that (continuous times, as from
// Poisson sources) they go to a 4-ary heap, and above heapMax pending
// events to a one-rung ladder queue. A run whose times are whole cycles a
// short way ahead (an open-loop point on a small network) keeps them in a
// calendar instead (kernel_queue_calendar.go), which gives them to the
// lists if they do not fit it.
//
// The ladder queue is one rung. Events far enough ahead go to top, an
// unsorted list, in O(1). When everything nearer is done, top is spread
// over a rung of buckets of equal width by time, and buckets are then
// opened one at a time: the open bucket is sorted once (bot) and events
// pushed into it or before it afterwards go to a small heap (near). A
// large network keeps millions of events pending whose times spread over a
// few link latencies; a heap of them costs a cache miss per level at each
// pop, while here a pop reads bot sequentially and near stays small.
type evQueue struct {
	near    []event // 4-ary heap: events pushed at or before the open bucket
	bot     []event // the open bucket, sorted; bot[bi:] still pending
	bi      int
	buckets [][]event // the rung; buckets[cur] is the open one
	cur, nb int
	// base and inv place time t in bucket (t-base)·inv (inv the inverse
	// of the buckets' width); flat means the rung is one bucket holding
	// every time up to base.
	base, inv      float64
	flat           bool
	top            []event
	topMin, topMax float64
	spare          []event // storage for the next top list while a flat rung's bot uses top's
	n              int     // pending
	// Until more than heapMax events are pending (0: defaultHeapMax),
	// every event goes to near, which is then a plain heap: on a small
	// network it stays in the L1 cache and beats the rung's bookkeeping.
	heapMax int
	ladder  bool
	// maxTimes bounds the distinct times kept in lists (0: maxListTimes).
	maxTimes int
	// Until the ladder, events are kept in timeLists while they can be
	// (listed), in near otherwise.
	lists  timeLists
	listed bool
	// cal keeps every event instead when a run has set it going
	// (useCalendar).
	cal calendar
	// scratch for sortByTime
	vals    []float64
	idx     []uint8
	scratch []event
	// storage for spread: every bucket of a rung, and where each event of
	// top goes
	arena []event
	where []int32
	count []int32
}

const defaultHeapMax = 4096

// ladderSplit is the mean number of events per bucket when top is spread
// over a rung: small enough that sorting a bucket is cheap, large enough
// that walking the rung's empty buckets is.
const ladderSplit = 4

func (q *evQueue) reset() {
	if q.flat {
		q.spare = q.bot[:0]
	}
	q.near, q.bot, q.bi, q.top, q.n = q.near[:0], nil, 0, q.top[:0], 0
	q.lists.reset()
	if q.cal.on {
		q.cal.drain(func(event) {})
	}
	q.lists.max = min(cmp.Or(q.maxTimes, maxListTimes), maxListTimes)
	q.listed = true
	clear(q.buckets)
	// A flat rung above every time: everything goes to near.
	q.cur, q.nb, q.flat, q.ladder = 0, 0, true, false
	q.base, q.inv = math.Inf(1), 0
}

// unlist moves the events of the time lists to near, which keeps them
// from now on, or, past heapMax of them, to the ladder.
func (q *evQueue) unlist() {
	q.listed = false
	if q.n > cmp.Or(q.heapMax, defaultHeapMax) {
		q.lists.drain(func(e event) { q.near = append(q.near, e) })
		q.toLadder()
		return
	}
	q.lists.drain(q.pushNear)
}

// toLadder moves every pending event, all in near, to top: the next pop
// spreads them over a rung.
func (q *evQueue) toLadder() {
	q.ladder = true
	q.topMin, q.topMax = q.near[0].t, q.near[0].t
	for i := range q.near {
		t := q.near[i].t
		if t < q.topMin {
			q.topMin = t
		}
		if t > q.topMax {
			q.topMax = t
		}
	}
	q.top = append(q.top[:0], q.near...)
	q.near = q.near[:0]
	q.base = math.Inf(-1) // a flat rung below every time: nothing is near
}

func (q *evQueue) len() int { return q.n }

// useCalendar keeps the events of the run about to start in a calendar
// of quantum-second slots (kernel_queue_calendar.go), if the queue is
// empty and quantum makes slots; the queue leaves it for its time lists
// if it gives up.
func (q *evQueue) useCalendar(quantum float64) {
	if q.n == 0 && quantum > 0 && quantum < math.Inf(1) && 1/quantum < math.Inf(1) {
		q.listed = false
		q.cal.start(quantum)
	}
}

// pushCal is push into the calendar, which must be on (the simulator's
// push does the same in its own body).
func (q *evQueue) pushCal(e *event) {
	q.n++
	if q.cal.push(e); q.cal.full {
		q.leaveCalendar()
	}
}

// leaveCalendar moves the calendar's events to the time lists (or, if
// they give up, the heap or ladder), which keep them from now on: in
// order of sequence, as the lists take them.
func (q *evQueue) leaveCalendar() {
	es := make([]event, 0, q.n)
	q.cal.drain(func(e event) { es = append(es, e) })
	slices.SortFunc(es, func(a, b event) int { return cmp.Compare(a.seq, b.seq) })
	q.n, q.listed = 0, true
	for _, e := range es {
		q.push(e)
	}
}

// bucket returns where time t belongs in the rung: below 0 for the open
// bucket or earlier (near), nb or more for top. NaN goes to top.
func (q *evQueue) bucket(t float64) int {
	if q.flat {
		if t <= q.base {
			return -1
		}
		return q.nb
	}
	x := (t - q.base) * q.inv
	if x < float64(q.cur+1) {
		return -1
	}
	if x < float64(q.nb) {
		return int(x)
	}
	return q.nb
}

// pushFast is push where the time lists take e in their commonest case
// (pushLast), small enough to inline into the simulator's push; false
// when push has to decide.
func (q *evQueue) pushFast(e *event) bool {
	if q.listed && q.lists.pushLast(e) {
		q.n++
		return true
	}
	return false
}

func (q *evQueue) push(e event) {
	if q.cal.on {
		q.pushCal(&e)
		return
	}
	q.n++
	if q.listed {
		if q.lists.push(e) {
			return
		}
		q.unlist()
	}
	switch b := q.bucket(e.t); {
	case b < 0:
		q.pushNear(e)
		if !q.ladder && len(q.near) > cmp.Or(q.heapMax, defaultHeapMax) {
			q.toLadder()
		}
	case b < q.nb:
		q.buckets[b] = append(q.buckets[b], e)
	default:
		if len(q.top) == 0 || e.t < q.topMin {
			q.topMin = e.t
		}
		if len(q.top) == 0 || e.t > q.topMax {
			q.topMax = e.t
		}
		q.top = append(q.top, e)
	}
}

// pop removes and returns the first pending event; the queue must not be
// empty. Its common cases are the next event of the list being popped or
// of the calendar's open slot.
func (q *evQueue) pop() event {
	if e, ok := q.popListed(); ok {
		return e
	}
	if c := &q.cal; c.hd < len(c.run) { // calendar's pop, inlined
		q.n--
		c.n--
		e := c.run[c.hd]
		c.hd++
		return e
	}
	return q.popSlow()
}

// popListed pops the next event of the time list being popped, if there
// is one: pop's commonest case, small enough to be inlined where pop is
// not (the simulator's loop).
func (q *evQueue) popListed() (e event, ok bool) {
	l := &q.lists
	if c := l.cc; c != nil && l.hd < c.n {
		q.n--
		e = c.ev[l.hd]
		l.hd++
		return e, true
	}
	return e, false
}

// nextTime is the time of the event pop would return next; the queue must
// not be empty. It pops nothing (a striped run's window ends at the first
// event past it, which stays first).
func (q *evQueue) nextTime() float64 {
	switch {
	case q.cal.on:
		if c := &q.cal; c.hd < len(c.run) {
			return c.run[c.hd].t
		}
		// (Only an open-loop point keeps a calendar, and no striped
		// run is one: were it, the event would go behind those of its
		// time pushed after it.)
		e := q.pop()
		q.push(e)
		return e.t
	case q.listed:
		q.lists.settle()
		return q.lists.cc.ev[q.lists.hd].t
	}
	if q.bi == len(q.bot) && len(q.near) == 0 {
		q.advance()
	}
	if q.bi < len(q.bot) && (len(q.near) == 0 || q.bot[q.bi].before(&q.near[0])) {
		return q.bot[q.bi].t
	}
	return q.near[0].t
}

func (q *evQueue) popSlow() event {
	if q.cal.on {
		q.n--
		return q.cal.pop()
	}
	if q.listed {
		q.n--
		return q.lists.pop()
	}
	if q.bi == len(q.bot) && len(q.near) == 0 {
		q.advance()
	}
	q.n--
	if q.bi < len(q.bot) && (len(q.near) == 0 || q.bot[q.bi].before(&q.near[0])) {
		e := q.bot[q.bi]
		q.bi++
		return e
	}
	return q.popNear()
}

// ahead is the pending event d places after the next in the list being
// popped (or the one after) or in the ladder's open bucket, if it is
// there; in the ladder it may not be the d+1-th to pop (near may come
// first).
func (q *evQueue) ahead(d int) *event {
	if e := q.lists.peek(d); e != nil {
		return e
	}
	return q.aheadSlow(d)
}

// aheadSlow is ahead past the time lists' peek.
func (q *evQueue) aheadSlow(d int) *event {
	if q.lists.cc != nil {
		return q.lists.aheadFar(d)
	}
	if i := q.bi + d; i < len(q.bot) {
		return &q.bot[i]
	}
	return nil
}

// advance opens the next non-empty bucket, spreading top over a new rung
// when the rung is done. Called with bot and near empty and n > 0.
func (q *evQueue) advance() {
	if q.flat {
		q.spare = q.bot[:0]
	} else if q.cur < q.nb {
		q.buckets[q.cur] = nil
	}
	q.bot, q.bi = nil, 0
	for {
		for q.cur++; q.cur < q.nb; q.cur++ {
			if len(q.buckets[q.cur]) > 0 {
				q.open(q.buckets[q.cur])
				return
			}
		}
		q.spread()
		if q.flat {
			return
		}
	}
}

func (q *evQueue) open(b []event) {
	q.sortEvents(b)
	q.bot, q.bi = b, 0
}

func compareEvents(a, b event) int {
	if c := cmp.Compare(a.t, b.t); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// spread moves the front of top into a new rung of buckets, leaving the
// rest in top. Times cluster (many events share a time; a few lie far
// ahead), so the bucket width is set from a sample of the front, to hold
// about ladderSplit events each there, rather than from top's whole range.
// When the times of top are all equal (or not finite), the rung is flat:
// everything goes into one sorted bucket.
func (q *evQueue) spread() {
	top := q.top
	n := len(top)
	width := q.sampleWidth()
	if n < flatBelow || !(width > 0) || !(1/width < math.Inf(1)) || !(q.topMax-q.topMin < math.MaxFloat64) {
		// The top list becomes the open bucket; a fresh top list takes its
		// place so that the two never share storage.
		q.flat, q.base, q.cur, q.nb = true, q.topMax, 0, 0
		q.top, q.spare = q.spare[:0], nil
		q.open(top)
		return
	}
	// Enough buckets for the events at the front's density; one more in
	// case (topMax-topMin)/width rounds up. Buckets beyond are dropped.
	nb := int(min((q.topMax-q.topMin)/width, float64(n/ladderSplit))) + 1
	q.flat, q.base, q.inv, q.cur, q.nb = false, q.topMin, 1/width, -1, nb
	// Count each bucket's events first, then give the buckets adjacent
	// storage in one arena, reused from rung to rung, each with room for
	// as many events again pushed later: appending to buckets one event at
	// a time grew each anew at every rung.
	where := slices.Grow(q.where[:0], n)[:n]
	count := slices.Grow(q.count[:0], nb+1)[:nb+1]
	clear(count)
	for i := range top {
		b := nb // beyond the rung, or NaN
		if x := (top[i].t - q.base) * q.inv; x < float64(nb) {
			b = int(x)
		}
		where[i] = int32(b)
		count[b]++
	}
	size := 0
	for _, c := range count[:nb] {
		size += 2*int(c) + rungSlack
	}
	if cap(q.arena) < size {
		q.arena = hugepages.Make[event](size, size)
	}
	arena := q.arena[:size]
	q.buckets = slices.Grow(q.buckets[:0], nb)[:nb]
	at := 0
	for b, c := range count[:nb] {
		end := at + 2*int(c) + rungSlack
		q.buckets[b] = arena[at:at:end]
		at = end
	}
	rest := top[:0]
	var lo, hi float64
	for i, e := range top {
		if b := where[i]; b < int32(nb) {
			q.buckets[b] = append(q.buckets[b], e)
			continue
		}
		if len(rest) == 0 || e.t < lo {
			lo = e.t
		}
		if len(rest) == 0 || e.t > hi {
			hi = e.t
		}
		rest = append(rest, e)
	}
	q.where, q.count = where, count
	q.top, q.topMin, q.topMax = rest, lo, hi
	if len(q.buckets[0]) == 0 {
		// Only NaN times are left: they have no order; keep them last.
		q.buckets[nb-1], q.top = append(q.buckets[nb-1], rest...), rest[:0]
	}
}

// rungSlack is the room each bucket of a rung has beyond twice the events
// it starts with, for events pushed into it later.
const rungSlack = 4

// flatBelow is the size of top under which spread sorts it whole rather
// than building a rung: a small network's runs have a few dozen events
// pending, and sorting them beats sampling and bucketing.
const flatBelow = 256

// sampleSize is how many of top's times sampleWidth looks at.
const sampleSize = 64

// sampleWidth estimates a bucket width that puts about ladderSplit events
// in each bucket at the front of top: the span of the earliest quarter of
// an evenly strided sample, over the events it stands for. 0 when the
// sample has no spread.
func (q *evQueue) sampleWidth() float64 {
	n := len(q.top)
	m := min(n, sampleSize)
	if m < 2 {
		return 0
	}
	var buf [sampleSize]float64
	s := buf[:m]
	for i := range s {
		s[i] = q.top[i*n/m].t
	}
	slices.Sort(s)
	s[0] = min(s[0], q.topMin)
	for k := max(m/4, 1); k < m; k *= 2 {
		if span := s[k] - s[0]; span > 0 {
			events := float64(k) * float64(n) / float64(m)
			return span * ladderSplit / events
		}
	}
	return (q.topMax - q.topMin) * ladderSplit / float64(n)
}

func (q *evQueue) pushNear(e event) { q.near = heapPush4(q.near, e) }

func (q *evQueue) popNear() event {
	var e event
	q.near, e = heapPop4(q.near)
	return e
}

// heapPush4 adds e to h, a 4-ary min-heap by event.before.
func heapPush4(h []event, e event) []event {
	h = append(h, e)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !e.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
	return h
}

// heapPop4 removes and returns the least event of h, which must not be
// empty.
func heapPop4(h []event) ([]event, event) {
	top := h[0]
	n := len(h) - 1
	e := h[n]
	h = h[:n]
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for k := c + 1; k < c+4 && k < n; k++ {
			if h[k].before(&h[m]) {
				m = k
			}
		}
		if !h[m].before(&e) {
			break
		}
		h[i] = h[m]
		i = m
	}
	if n > 0 {
		h[i] = e
	}
	return h, top
}

// sortEvents sorts a bucket by (time, sequence). A bucket is filled in push
// order, so sequences ascend and it is often sorted already (equal times
// are common); small ones are insertion sorted, large ones counted by time
// where they can be (sortByTime).
func (q *evQueue) sortEvents(b []event) {
	i := 1
	for i < len(b) && !b[i].before(&b[i-1]) {
		i++
	}
	if i >= len(b) {
		return
	}
	if len(b) > 48 {
		if !q.sortByTime(b) {
			slices.SortFunc(b, compareEvents)
		}
		return
	}
	sortRun(b, i)
}

// maxDistinct is the most distinct times sortByTime counts.
const maxDistinct = 256

// sortByTime orders b by time alone, stably, by counting the events of each
// distinct time and placing them. On a large network a bucket holds
// thousands of events but only tens of distinct times (sums of a few
// latencies and transmission times), and it is filled in push order: when
// its sequences ascend, a stable order by time is the order by (time,
// sequence), found in a few passes instead of a comparison sort's
// n log n. It reports false, leaving b as it was, when the sequences do not
// ascend, a time is NaN or there are more than maxDistinct times.
func (q *evQueue) sortByTime(b []event) bool {
	vals := q.vals[:0]
	last := b[0].t
	if last != last {
		return false
	}
	vals = append(vals, last)
	for j := 1; j < len(b); j++ {
		if b[j].seq < b[j-1].seq {
			return false
		}
		t := b[j].t
		if t == last {
			continue
		}
		if t != t {
			return false
		}
		if k, found := slices.BinarySearch(vals, t); !found {
			if len(vals) == maxDistinct {
				return false
			}
			vals = slices.Insert(vals, k, t)
		}
		last = t
	}
	q.vals = vals
	var at [maxDistinct + 1]int32 // where the next event of each time goes
	idx := slices.Grow(q.idx[:0], len(b))[:len(b)]
	last, k := math.NaN(), 0
	for j := range b {
		if t := b[j].t; t != last {
			k, _ = slices.BinarySearch(vals, t)
			last = t
		}
		idx[j] = uint8(k)
		at[k+1]++
	}
	for k := 1; k < len(vals); k++ {
		at[k] += at[k-1]
	}
	out := slices.Grow(q.scratch[:0], len(b))[:len(b)]
	for j := range b {
		k := idx[j]
		out[at[k]] = b[j]
		at[k]++
	}
	copy(b, out)
	q.idx, q.scratch = idx, out
	return true
}
