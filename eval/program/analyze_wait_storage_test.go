package program

import "testing"

// A wait list whose members left from the front, once emptied and
// reused, starts again with all its storage, not what the front left:
// lists are recycled by due time, and growing each anew was a quarter of
// a large analysis's memory.
func TestWaitListReusesItsStorageWhenEmptied(t *testing.T) {
	a := &analysis{}
	i := a.waitList(waitKey{due: 1})
	l := a.waits.at(i)
	for s := range uint64(100) {
		l.members = append(l.members, waiter{seq: s})
		l.adopt()
	}
	full := cap(l.members)
	for len(l.members) > 1 {
		l.members = l.members[1:]
	}
	a.dropWaitList(i)
	j := a.waitList(waitKey{due: 2})
	if j != i {
		t.Fatalf("list %d was not reused (got %d)", i, j)
	}
	if got := cap(a.waits.at(j).members); got != full {
		t.Fatalf("reused list has room for %d members, want %d", got, full)
	}
	// Grown past its storage by a merge, it keeps the new storage.
	a.merge(j, make([]waiter, full+1))
	if got := cap(a.waits.at(j).buf); got < full+1 {
		t.Fatalf("after a merge of %d the list's storage holds %d", full+1, got)
	}
}

// The wait lists stay where they are as more are made (they are kept in
// chunks, never copied to a larger array), each list's index its own.
func TestWaitListsStayWhereTheyAre(t *testing.T) {
	a := &analysis{}
	var at []*waitList
	for d := range ps(3*waitChunk + 5) {
		i := a.waitList(waitKey{due: d})
		if int(i) != len(at) {
			t.Fatalf("list %d made at index %d", len(at), i)
		}
		at = append(at, a.waits.at(i))
	}
	for i, l := range at {
		if a.waits.at(int32(i)) != l || l.key.due != ps(i) {
			t.Fatalf("list %d moved or changed: due %d", i, l.key.due)
		}
	}
}
