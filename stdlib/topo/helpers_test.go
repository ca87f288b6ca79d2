package topo

// offsetIDs is the ids off, off+1, …, off+n-1.
func offsetIDs(n, off int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i + off
	}
	return ids
}
