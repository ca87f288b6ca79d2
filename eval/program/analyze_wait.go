package program

import (
	"cmp"
	"slices"
)

// Operations waiting for a processor. An operation that finds its CPU (or
// NIC) busy is due again when it is free, keeping its place (seq) among
// the events due then. With many ranks on one processor, each time the CPU
// frees one of them takes it and the others find it busy again: retried
// one by one through the event queue, k waiting ranks cost k² events.
// Instead the waiting operations of a CPU, of one class and due at one
// time, form a list in seq order, and only its head is in the event queue
// (an evWake event). When the head is due and the resources are still
// busy, every member up to the next event due at the same time would find
// them busy alike (nothing between them changes the processor), so the
// run of them moves on to the new time at once. The answer is the one of
// retrying each operation as its own event, step for step.

// evWake is the event of a wait list's head (op is the list's index).
const evWake = evLeave + 1

// What a waiting operation needs.
const (
	waitCPU    uint8 = iota // a computation: its CPU
	waitSend                // a send: its CPU and its NIC's sending side
	waitArrive              // an arriving message: its CPU and its NIC's receiving side
)

type waitKey struct {
	due   ps
	c     int32 // CPU: processor × CPUs + CPU
	g     int32 // NIC: processor × NICs + NIC; -1 for waitCPU
	class uint8
}

// waiter is an event parked in a wait list.
type waiter struct {
	seq uint64
	// epoch is when the operation's why was last brought up to date; the
	// list's why applies to it if the list failed later.
	epoch uint64
	op    int32
	kind  uint8
}

type waitList struct {
	key     waitKey
	members []waiter // in seq order
	// buf is members' storage from its start: members leave from the
	// front, and a list emptied and reused (lists are recycled by due
	// time) starts again with all of it rather than what the front left.
	buf []waiter
	// why is what held the members the last time they all found their
	// resources busy (at whyEpoch); -1 none.
	why      int32
	whyEpoch uint64
	// woken: an evWake for the head is queued (and any other is stale).
	woken bool
}

// waitLists holds the wait lists, list i at at(i), in chunks of
// waitChunk that stay where they are: grown as one array by append, the
// lists of a 65,536-rank broadcast (at most 3,928 at once, 96 bytes each)
// allocated 1.7 MB, four times what they hold, in copies the run's end
// still counted in its peak memory.
type waitLists struct {
	chunks []*[waitChunk]waitList
	n      int32
}

const waitChunk = 64

func (w *waitLists) at(i int32) *waitList { return &w.chunks[i/waitChunk][i%waitChunk] }

// add makes room for one more list, which it returns the index of.
func (w *waitLists) add() int32 {
	if int(w.n) == len(w.chunks)*waitChunk {
		w.chunks = append(w.chunks, new([waitChunk]waitList))
	}
	w.n++
	return w.n - 1
}

// free says when class's resources of CPU c and NIC g are free, and which
// operation holds them (-1: no one the critical path follows).
func (a *analysis) free(c, g int, class uint8) (ps, int32) {
	switch class {
	case waitCPU:
		return a.nexto[c], a.cpuOp[c]
	case waitSend:
		if a.nextgs[g] > a.nexto[c] {
			return a.nextgs[g], a.nicOp[g]
		}
		return a.nexto[c], a.cpuOp[c]
	}
	return max(a.nexto[c], a.nextgr[g]), -1
}

// wait parks event e, which found class's resources of CPU c and NIC g
// busy until due, held by blocker.
func (a *analysis) wait(e anEvent, c, g int, class uint8, due ps, blocker int32) {
	if class != waitArrive && blocker >= 0 {
		a.ops[e.op].why = blocker
	}
	a.epoch++
	w := waiter{seq: e.seq, epoch: a.epoch, op: e.op, kind: e.kind}
	i := a.waitList(waitKey{due, int32(c), int32(g), class})
	l := a.waits.at(i)
	k := len(l.members)
	if k > 0 && l.members[k-1].seq > w.seq {
		k, _ = slices.BinarySearchFunc(l.members, w.seq, func(m waiter, s uint64) int { return cmp.Compare(m.seq, s) })
	}
	l.members = slices.Insert(l.members, k, w)
	l.adopt()
	if k == 0 {
		a.wake(i)
	}
}

// waitList returns the list of key, making it if there is none.
func (a *analysis) waitList(key waitKey) int32 {
	if i, ok := a.waitAt[key]; ok {
		return i
	}
	var i int32
	if n := len(a.freeWaits); n > 0 {
		i = a.freeWaits[n-1]
		a.freeWaits = a.freeWaits[:n-1]
	} else {
		i = a.waits.add()
	}
	l := a.waits.at(i)
	l.key, l.why, l.whyEpoch, l.woken = key, -1, 0, false
	l.members = l.buf[:0]
	if a.waitAt == nil {
		a.waitAt = map[waitKey]int32{}
	}
	a.waitAt[key] = i
	return i
}

func (a *analysis) dropWaitList(i int32) {
	l := a.waits.at(i)
	delete(a.waitAt, l.key)
	l.woken = false
	l.members = l.buf[:0]
	a.freeWaits = append(a.freeWaits, i)
}

// adopt makes members' storage the list's when growing it moved it.
func (l *waitList) adopt() {
	m, b := cap(l.members), cap(l.buf)
	if m > 0 && (b == 0 || &l.members[:m][m-1] != &l.buf[:b][b-1]) {
		l.buf = l.members
	}
}

// wake queues the event of list i's head.
func (a *analysis) wake(i int32) {
	l := a.waits.at(i)
	l.woken = true
	a.events.push(anEvent{t: l.key.due, seq: l.members[0].seq, op: i, kind: evWake})
}

// live reports whether a wake event is its list's current one.
func (a *analysis) live(e anEvent) bool {
	l := a.waits.at(e.op)
	return l.woken && l.key.due == e.t && len(l.members) > 0 && l.members[0].seq == e.seq
}

// nextNow is the seq of the next event due now, dropping stale wake
// events; false when none is due now.
func (a *analysis) nextNow() (uint64, bool) {
	q := &a.events
	z := q.due
	for q.head < len(z) {
		e := z[q.head]
		if e.kind != evWake || a.live(e) {
			return e.seq, true
		}
		q.head++
		q.n--
	}
	return 0, false
}

// wakeList runs the members of list i that are due now, in seq order,
// each as the event it stands for, until the next event due now comes
// before the next member.
func (a *analysis) wakeList(i int32) error {
	a.waits.at(i).woken = false
	for {
		l := a.waits.at(i)
		if len(l.members) == 0 {
			a.dropWaitList(i)
			return nil
		}
		head := l.members[0]
		due, c := l.key.due, int(l.key.c)
		free, blocker := a.free(c, int(l.key.g), l.key.class)
		if free > due && a.heldPast(c, l.key.class, due) {
			a.move(i, len(l.members), free, blocker)
			return nil
		}
		next, has := a.nextNow()
		if has && next < head.seq {
			a.wake(i)
			return nil
		}
		if free > due {
			j := len(l.members)
			if has {
				j, _ = slices.BinarySearchFunc(l.members, next, func(m waiter, s uint64) int { return cmp.Compare(m.seq, s) })
			}
			if a.move(i, j, free, blocker) {
				return nil
			}
			continue
		}
		l.members = l.members[1:]
		if l.key.class != waitArrive && l.whyEpoch > head.epoch && l.why >= 0 {
			a.ops[head.op].why = l.why
		}
		a.nEvents++
		e := anEvent{t: due, seq: head.seq, op: head.op, kind: head.kind}
		var err error
		if e.kind == evArrive {
			err = a.arrive(e)
		} else {
			err = a.startOp(e)
		}
		if err != nil {
			return err
		}
		if len(a.ready) > 0 {
			a.schedule()
		}
	}
}

// heldPast reports whether class's resources of CPU c, busy past t, stay
// so through every event due at t, whatever those events are: then every
// member of a list due at t finds them as busy as the first does, even
// with other events between them. A busy CPU takes no operation, so
// nothing but a collective's end or an until (which hold CPUs without
// asking; none is queued) changes its time; a NIC side changes only with
// an operation on a CPU of its processor, which with one CPU a processor
// is the busy one. Otherwise the members are run up to the next event.
func (a *analysis) heldPast(c int, class uint8, t ps) bool {
	return a.occupiers == 0 && a.nexto[c] > t && (class == waitCPU || a.ncpu == 1)
}

// move sends the first j members of list i, which found their resources
// busy until due, held by blocker, to the list of that time; it reports
// whether that was all of them.
func (a *analysis) move(i int32, j int, due ps, blocker int32) bool {
	a.epoch++
	l := a.waits.at(i)
	key := waitKey{due, l.key.c, l.key.g, l.key.class}
	t, exists := a.waitAt[key]
	if j == len(l.members) && !exists {
		// The whole list moves: their whys are brought up to date when
		// each leaves it.
		delete(a.waitAt, l.key)
		l.key = key
		a.waitAt[key] = i
		if blocker >= 0 && l.key.class != waitArrive {
			l.why, l.whyEpoch = blocker, a.epoch
		}
		a.wake(i)
		return true
	}
	run := l.members[:j]
	for k := range run {
		m := &run[k]
		if l.key.class != waitArrive {
			if blocker >= 0 {
				a.ops[m.op].why = blocker
			} else if l.whyEpoch > m.epoch && l.why >= 0 {
				a.ops[m.op].why = l.why
			}
		}
		m.epoch = a.epoch
	}
	if !exists {
		t = a.waitList(key)
	}
	a.merge(t, run)
	l.members = l.members[j:]
	if len(l.members) == 0 {
		a.dropWaitList(i)
		return true
	}
	return false
}

// merge adds run, in seq order, to list t.
func (a *analysis) merge(t int32, run []waiter) {
	l := a.waits.at(t)
	old := l.members
	if len(old) == 0 || old[len(old)-1].seq < run[0].seq {
		l.members = append(old, run...)
	} else {
		out := make([]waiter, 0, len(old)+len(run))
		x, y := 0, 0
		for x < len(old) && y < len(run) {
			if old[x].seq < run[y].seq {
				out = append(out, old[x])
				x++
			} else {
				out = append(out, run[y])
				y++
			}
		}
		out = append(append(out, old[x:]...), run[y:]...)
		l.members = out
	}
	l.adopt()
	if len(old) == 0 || l.members[0].seq != old[0].seq {
		a.wake(t)
	}
}
