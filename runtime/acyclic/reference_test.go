package acyclic

import (
	"slices"
	"testing"
)

// improveReference is the direct form of rule C2 (§3.4.2), kept to check
// improve: the UGLY connects into each leaving link m, visited in ascending
// order of m, become GOOD unless a full search from m through GOOD connects
// reaches their arriving link. One search tests every arriving link of m at
// once: a new connect into m cannot help another path from m back into m's
// processor.
func (nw *Network) improveReference() {
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

// TestImproveMatchesReference: the dynamic-order improvement decides every
// UGLY connect exactly as the direct search does.
func TestImproveMatchesReference(t *testing.T) {
	gs := testGraphs()
	for i, n := range []int{32, 100, 512} {
		gs = append(gs, namedGraph{"hamiltonian-extra", n, hamiltonian(n, newRand(uint64(40+i)))})
	}
	for _, g := range gs {
		for _, merge := range []bool{false, true} {
			nw, err := Build(g.n, g.links, Options{Variant: Improved, Merge: merge})
			if err != nil {
				t.Fatal(err)
			}
			got, improved := slices.Clone(nw.cls), nw.nImproved
			nw.cls, nw.nImproved = slices.Clone(nw.c1), 0
			nw.improveReference()
			if !slices.Equal(got, nw.cls) || improved != nw.nImproved {
				t.Errorf("%s merge=%v: improve differs from the reference (%d vs %d improved)", g.name, merge, improved, nw.nImproved)
			}
		}
	}
}
