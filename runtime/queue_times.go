package runtime

// timeLists holds a small network's pending events as one list per
// distinct time. Times cluster on a few values (sums of a few latencies
// and transmission times), and events arrive in sequence order, so each
// list is already in (time, sequence) order: a pop takes the head of the
// earliest list and a push appends to its time's list, with no comparison
// of sequences. It gives up (push reports false) past maxListTimes
// distinct times, on a NaN time, or when sequences do not ascend; the
// queue then keeps its events in the heap.
type timeLists struct {
	times   []float64 // distinct pending times, descending: the earliest last
	lists   [][]event // lists[i]: the events of times[i], in push order
	heads   []int32   // lists[i][heads[i]:] are pending
	spare   [][]event // emptied lists, for reuse
	lastSeq uint64
}

const maxListTimes = 64

func (l *timeLists) reset() {
	for i := range l.lists {
		l.spare = append(l.spare, l.lists[i][:0])
	}
	l.times, l.lists, l.heads, l.lastSeq = l.times[:0], l.lists[:0], l.heads[:0], 0
}

func (l *timeLists) push(e event) bool {
	if e.seq < l.lastSeq || e.t != e.t {
		return false
	}
	// The first index whose time is at or before e.t.
	lo, hi := 0, len(l.times)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if l.times[m] > e.t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(l.times) && l.times[lo] == e.t {
		l.lists[lo] = append(l.lists[lo], e)
		l.lastSeq = e.seq
		return true
	}
	if len(l.times) == maxListTimes {
		return false
	}
	var list []event
	if n := len(l.spare); n > 0 {
		list, l.spare = l.spare[n-1], l.spare[:n-1]
	}
	l.times = append(l.times, 0)
	l.lists = append(l.lists, nil)
	l.heads = append(l.heads, 0)
	copy(l.times[lo+1:], l.times[lo:])
	copy(l.lists[lo+1:], l.lists[lo:])
	copy(l.heads[lo+1:], l.heads[lo:])
	l.times[lo], l.lists[lo], l.heads[lo] = e.t, append(list, e), 0
	l.lastSeq = e.seq
	return true
}

// pop removes the first pending event; there must be one.
func (l *timeLists) pop() event {
	k := len(l.times) - 1
	list, h := l.lists[k], l.heads[k]
	e := list[h]
	if int(h)+1 < len(list) {
		l.heads[k] = h + 1
		return e
	}
	l.spare = append(l.spare, list[:0])
	l.times, l.lists, l.heads = l.times[:k], l.lists[:k], l.heads[:k]
	return e
}

// drain hands every pending event to f, in no particular order.
func (l *timeLists) drain(f func(event)) {
	for i := range l.lists {
		for _, e := range l.lists[i][l.heads[i]:] {
			f(e)
		}
	}
	l.reset()
}
