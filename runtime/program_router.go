package runtime

import (
	"slices"
	"sort"
)

// A processor that routes in software with a router process of high
// priority (NodeParams.RouteCPUFixed, RouteCPUPerByte: TINY's, seed 003
// §3.5.3 and Table 3.7) forwards a packet without waiting for the
// computation on its CPU; the CPU time the router takes, a′ + b′l a
// packet, is taken from that computation instead. The router's CPU time
// is kept per node as merged intervals, one packet's after the one
// before it (the router routes one packet at a time); a computation
// loses all the time of them it overlaps (see progRun.lost), as the
// low-priority work loop of the seed's experiment does.

// routesOnCPU tells whether node parameters np charge routing to the CPU.
func routesOnCPU(np *NodeParams) bool { return np.RouteCPUFixed > 0 || np.RouteCPUPerByte > 0 }

// routerProcesses tells whether some node of n has a router process of
// high priority.
func (n *network) routerProcesses() bool {
	if routesOnCPU(&n.spec.DefaultNode) {
		return true
	}
	for i := range n.spec.Nodes {
		if routesOnCPU(&n.spec.Nodes[i]) {
			return true
		}
	}
	return false
}

// routeCPU records the router of node v taking cost seconds of its CPU
// from time from on, after the router's time already recorded
// (sim.routeCPU).
func (p *progRun) routeCPU(v int32, from, cost float64) {
	if !p.hosts[v] || cost <= 0 {
		return
	}
	iv := p.cpuBy[v]
	if k := len(iv) - 1; k >= 0 && from <= iv[k].b {
		iv[k].b += cost
		return
	}
	p.cpuBy[v] = p.keepOpen(iv, interval{from, from + cost})
}

// keepOpen appends x to the sorted disjoint intervals iv, first dropping
// those no computation can still overlap: computation starts no earlier
// than now, and the earliest running one started no earlier than the
// longest one ago (longestCalc).
func (p *progRun) keepOpen(iv []interval, x interval) []interval {
	if len(iv) >= 256 {
		keep := p.s.now - p.longestCalc()
		k := 0
		for k < len(iv) && iv[k].b < keep {
			k++
		}
		iv = append(iv[:0], iv[k:]...)
	}
	return append(iv, x)
}

// merge adds x to the sorted disjoint intervals iv, joining those it
// overlaps or touches.
func merge(iv []interval, x interval) []interval {
	i := sort.Search(len(iv), func(k int) bool { return iv[k].b >= x.a })
	j := sort.Search(len(iv), func(k int) bool { return iv[k].a > x.b })
	if i == j {
		return slices.Insert(iv, i, x)
	}
	x.a, x.b = min(x.a, iv[i].a), max(x.b, iv[j-1].b)
	return slices.Replace(iv, i, j, x)
}
