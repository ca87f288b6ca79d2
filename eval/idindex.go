package eval

// idIndex maps a topology's node ids to their index in order of first
// mention: a slice for the small non-negative ids most topologies number
// their nodes with, a map for the others. A file of a hundred thousand
// links looks its ids up twice per link.
type idIndex struct {
	dense  []int32 // by id: index+1, or 0 for an id not seen
	sparse map[int]int
}

func (x *idIndex) get(id int) (int, bool) {
	if uint(id) < uint(len(x.dense)) {
		i := x.dense[id]
		return int(i) - 1, i != 0
	}
	i, ok := x.sparse[id]
	return i, ok
}

// set records that id has index i, the number of ids seen before it. The
// slice grows only to about twice the ids seen, so that a few large ids
// take the map instead of a slice as long as the largest.
func (x *idIndex) set(id, i int) {
	if uint(id) < uint(len(x.dense)) {
		x.dense[id] = int32(i + 1)
		return
	}
	if limit := 2*(i+1) + 1024; id >= 0 && id < limit && i < 1<<30 {
		n := min(max(id+1, 2*len(x.dense)), limit)
		grown := make([]int32, n)
		copy(grown, x.dense)
		x.dense = grown
		for sid, si := range x.sparse {
			if uint(sid) < uint(n) {
				x.dense[sid] = int32(si + 1)
				delete(x.sparse, sid)
			}
		}
		x.dense[id] = int32(i + 1)
		return
	}
	if x.sparse == nil {
		x.sparse = map[int]int{}
	}
	x.sparse[id] = i
}
