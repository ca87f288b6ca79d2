package acyclic

// colour computes the trivial colouring of Fig. 2.8 with the multigraph tree
// labelling of Fig. 3.8: breadth-first trees of unlabelled links, the first
// rooted at processor 0, each next one at the lowest processor that still has
// an unlabelled link. A link to a neighbour that already has a parent in the
// current tree is left for a later tree, which also keeps the second of two
// parallel links out of the tree that took the first.
func (nw *Network) colour() {
	for i := range nw.label {
		nw.label[i] = -1
	}
	parent := make([]int32, nw.n)
	for i := range parent {
		parent[i] = -1
	}
	var queue, touched []int32
	tree := int32(0)
	for root := int32(0); root < int32(nw.n); root++ {
		// Processors below root never regain unlabelled links, and root may
		// need several trees (parallel links).
		for nw.hasUnlabelled(root) {
			queue = append(queue[:0], root)
			touched = append(touched[:0], root)
			parent[root] = root
			for q := 0; q < len(queue); q++ {
				v := queue[q]
				for _, d := range nw.uPort[nw.uStart[v]:nw.uStart[v+1]] {
					w := nw.uHead(d)
					if nw.label[d>>1] >= 0 || parent[w] >= 0 {
						continue
					}
					nw.label[d>>1] = tree
					parent[w] = v
					queue = append(queue, w)
					touched = append(touched, w)
				}
			}
			for _, v := range touched {
				parent[v] = -1
			}
			tree++
		}
	}
}

func (nw *Network) hasUnlabelled(v int32) bool {
	for _, d := range nw.uPort[nw.uStart[v]:nw.uStart[v+1]] {
		if nw.label[d>>1] < 0 {
			return true
		}
	}
	return false
}

// classify marks every connect at every processor by rule C1 as adapted in
// §3.4.2: BAD when both links lead to the same neighbour, GOOD when the
// arriving link's colour is not less than the leaving link's, UGLY otherwise.
func (nw *Network) classify() {
	nw.cls = make([]Class, nw.clsStart[nw.n])
	for j := 0; j < nw.n; j++ {
		ports := nw.uPort[nw.uStart[j]:nw.uStart[j+1]]
		deg := len(ports)
		base := int(nw.clsStart[j])
		for a, back := range ports { // arrival over back^1, from uHead(back)
			from := nw.uHead(back)
			for b, out := range ports {
				c := Bad
				switch {
				case nw.uHead(out) == from:
				case nw.label[back>>1] >= nw.label[out>>1]:
					c = Good
				default:
					c = Ugly
					nw.nUgly++
				}
				nw.cls[base+a*deg+b] = c
			}
		}
	}
	nw.c1 = append([]Class(nil), nw.cls...)
}

// improve applies rule C2 (§3.4.2): the UGLY connects into each leaving link
// m, visited in ascending order of m, become GOOD unless a search from m
// through GOOD connects reaches their arriving link, which would close a
// cycle. One search tests every arriving link of m at once: a new connect
// into m cannot help another path from m back into m's processor.
func (nw *Network) improve() {
	nd := int32(len(nw.uPort))
	stamp := make([]int32, nd)
	queue := make([]int32, 0, nd)
	var cand []int32 // arrival ports at tail(m) with an UGLY connect into m
	for m := int32(0); m < nd; m++ {
		j := nw.uTail(m)
		ports := nw.uPort[nw.uStart[j]:nw.uStart[j+1]]
		deg := int32(len(ports))
		base := nw.clsStart[j]
		bm := nw.uIdx[m]
		cand = cand[:0]
		for a := int32(0); a < deg; a++ {
			if nw.cls[base+a*deg+bm] == Ugly {
				cand = append(cand, a)
			}
		}
		if len(cand) == 0 {
			continue
		}
		// Search from m; stop once every candidate's arriving link is found.
		mark := m + 1
		stamp[m] = mark
		queue = append(queue[:0], m)
		left := len(cand)
		for q := 0; q < len(queue) && left > 0; q++ {
			x := queue[q]
			k := nw.uHead(x)
			kp := nw.uPort[nw.uStart[k]:nw.uStart[k+1]]
			kd := int32(len(kp))
			row := nw.cls[nw.clsStart[k]+nw.uIdx[x^1]*kd:]
			for b, y := range kp {
				if row[b] != Good || stamp[y] == mark {
					continue
				}
				stamp[y] = mark
				queue = append(queue, y)
				if nw.uHead(y) == j { // y arrives at j: is it a candidate?
					for _, a := range cand {
						if ports[a]^1 == y {
							left--
						}
					}
				}
			}
		}
		for _, a := range cand {
			if stamp[ports[a]^1] == mark {
				nw.cls[base+a*deg+bm] = Bad
			} else {
				nw.cls[base+a*deg+bm] = Good
				nw.nImproved++
			}
		}
	}
}
