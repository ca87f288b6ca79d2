package validation

import (
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// switchPorts is the most links any switch (or, with none, any node) of
// the machine's topology has, and how many switches there are.
func switchPorts(t *testing.T, m *eval.Machine) (ports, switches int) {
	t.Helper()
	tp, err := m.Topology("")
	if err != nil {
		t.Fatal(err)
	}
	g := tp.Graph
	for v := range int32(g.N()) {
		if g.NodeKind(v) == topo.Switch || g.NumProcs() == g.N() {
			ports = max(ports, g.Degree(v))
			if g.NodeKind(v) == topo.Switch {
				switches++
			}
		}
	}
	return ports, switches
}

// linkRates are the distinct speeds of the topology's links, in B/s.
func linkRates(t *testing.T, m *eval.Machine) map[float64]bool {
	t.Helper()
	tp, err := m.Topology("")
	if err != nil {
		t.Fatal(err)
	}
	out := map[float64]bool{}
	for l := range int32(tp.Graph.NumLinks()) {
		out[tp.LinkSpeed(l)] = true
	}
	return out
}

// todaysMachines holds the standard machines of today to the figures
// their sources publish (each file's comments cite them): ports a switch,
// nodes, diameter, link rates, latency. Counts are asserted exactly.
func todaysMachines(t *testing.T) section {
	var rows []row
	exact := func(q, seed string, want, got float64, cmd string) {
		rows = append(rows, check(t, row{Quantity: q, Seed: seed, SeedVal: want, Value: got, Tol: 0.5, Abs: true, Cmd: cmd}))
	}
	rate := func(q, seed string, want float64, m *eval.Machine, cmd string) {
		got := 0.0
		if linkRates(t, m)[want] {
			got = want
		}
		rows = append(rows, check(t, row{Quantity: q, Seed: seed, SeedVal: want / 1e9, Value: got / 1e9, Unit: "GB/s", Tol: 1e-9, Cmd: cmd}))
	}

	// Slingshot (De Sensi et al. 2020): 64-port Rosetta switches, groups
	// of 32 switches with 16 endpoints each, at most 545 groups, at most
	// three switch-to-switch hops, 200 Gb/s ports.
	m := load(t, "std:slingshot")
	ports, sw := switchPorts(t, m)
	exact("Slingshot: ports a switch (9 groups)", "64", 64, float64(ports), "parasol draw std:slingshot (a rosetta node's links)")
	exact("Slingshot: switches (9 groups of 32)", "288", 288, float64(sw), "parasol eval std:slingshot switches")
	exact("Slingshot: nodes (9 groups)", "4608", 9*32*16, evalNum(t, m, "nodes"), "parasol eval std:slingshot nodes")
	rate("Slingshot: link rate", "200 Gb/s", 200e9/8, m, "parasol draw std:slingshot")
	big := load(t, "std:slingshot", "groups=545")
	exact("Slingshot: nodes, 545 groups (the largest)", "279040", 279040, evalNum(t, big, "nodes"), "parasol eval std:slingshot --set groups=545 nodes")
	exact("Slingshot: diameter, 545 groups (3 switch-to-switch hops)", "5 links", 5, evalNum(t, big, "diameter"), "parasol eval std:slingshot --set groups=545 diameter")
	if d := evalNum(t, m, "diameter"); d > 5 {
		t.Errorf("Slingshot, 9 groups: diameter %g links, want at most 5", d)
	}

	// InfiniBand NDR: a full two-level tree of 64-port Quantum-2 switches
	// (64 leaves, 32 spines) reaches 2,048 nodes; NDR is 400 Gb/s.
	m = load(t, "std:ib-ndr", "leaves=64", "cores=2")
	tp, _ := m.Topology("")
	g := tp.Graph
	ib, mem, ibPorts := 0, 0, 0
	for v := range int32(g.N()) {
		switch tp.NodeType(v).Label {
		case "quantum2":
			ib++
			ibPorts = max(ibPorts, g.Degree(v))
			if g.Degree(v) != 64 {
				t.Errorf("IB switch %d has %d ports, want 64", v, g.Degree(v))
			}
		case "memory":
			mem++
		}
	}
	const ibCmd = "parasol eval std:ib-ndr --set leaves=64 --set cores=2 switches nodes diameter"
	exact("IB NDR: ports a switch (64 leaves)", "64", 64, float64(ibPorts), ibCmd)
	exact("IB NDR: switches, 64 leaves and 32 spines", "96", 96, float64(ib), ibCmd)
	exact("IB NDR: nodes of the full two-level tree", "2048", 2048, float64(mem), ibCmd)
	exact("IB NDR: cores (2 a node)", "4096", 2*2048, evalNum(t, m, "nodes"), ibCmd)
	exact("IB NDR: diameter (core, node, leaf, spine, leaf, node, core)", "6 links", 6, evalNum(t, m, "diameter"), ibCmd)
	rate("IB NDR: link rate", "400 Gb/s", 400e9/8, m, "parasol draw std:ib-ndr")

	// TofuD (Ajima et al. 2018): ten ports a router, 6.8 GB/s links, a
	// one-way 8-byte Put in 0.49 µs; Fugaku a 24 × 23 × 24 torus of 2 × 3
	// × 2 groups, 158,976 nodes.
	m = load(t, "std:tofud")
	ports, _ = switchPorts(t, m)
	exact("TofuD: ports a router", "10", 10, float64(ports), "parasol eval std:tofud links nodes")
	rate("TofuD: link rate", "6.8 GB/s", 6.8e9, m, "parasol draw std:tofud")
	r := send(t, m, 0, 1, 8)
	rows = append(rows, check(t, row{Quantity: "TofuD: one-way 8-byte Put to a neighbour", Seed: "0.49 us", SeedVal: 0.49, Value: r.Latency.Mean * 1e6, Unit: "us", Tol: 0.01,
		Cmd: "parasol sim std:tofud --op send --src 0 --dst 1 --size 8", Note: "the split between TNI, router and wire is an assumption fitted to this total"}))
	f := load(t, "std:tofud", "x=24", "y=23", "z=24")
	const fCmd = "parasol eval std:tofud --set x=24 --set y=23 --set z=24 nodes diameter"
	exact("TofuD: Fugaku's nodes", "158976", 158976, evalNum(t, f, "nodes"), fCmd)
	// ⌊24/2⌋ + ⌊23/2⌋ + ⌊24/2⌋ along X, Y, Z, then 1 each along A, B, C.
	exact("TofuD: Fugaku's diameter (12 + 11 + 12 + 1 + 1 + 1)", "38 hops", 38, evalNum(t, f, "diameter"), fCmd)

	// A DGX H100 scalable unit: 32 nodes of 8 GPUs, their NVSwitch
	// fabric, 8 rail leaves; NVLink 900 GB/s a GPU both ways, NDR 400 Gb/s.
	m = load(t, "std:dgx-h100", "servers=32")
	tp, _ = m.Topology("")
	g = tp.Graph
	leaves, nvs := 0, 0
	for v := range int32(g.N()) {
		switch tp.NodeType(v).Label {
		case "quantum2":
			leaves++
			if g.Degree(v) != 32 {
				t.Errorf("rail leaf %d has %d links, want 32 (one a node)", v, g.Degree(v))
			}
		case "nvswitch":
			nvs++
			if g.Degree(v) != 16 {
				t.Errorf("NVSwitch fabric %d has %d links, want 8 GPUs and 8 rails", v, g.Degree(v))
			}
		}
	}
	const dCmd = "parasol eval std:dgx-h100 --set servers=32 nodes switches diameter"
	exact("DGX H100: GPUs of a scalable unit (32 nodes)", "256", 256, evalNum(t, m, "nodes"), dCmd)
	exact("DGX H100: rail leaves", "8", 8, float64(leaves), dCmd)
	exact("DGX H100: nodes (NVSwitch fabrics)", "32", 32, float64(nvs), dCmd)
	exact("DGX H100: diameter (GPU, NVSwitch, rail leaf, NVSwitch, GPU)", "4 links", 4, evalNum(t, m, "diameter"), dCmd)
	rate("DGX H100: NVLink a GPU, each way", "450 GB/s", 450e9, m, "parasol draw std:dgx-h100")
	rate("DGX H100: NDR a port", "400 Gb/s", 400e9/8, m, "parasol draw std:dgx-h100")

	return section{
		Title: "Standard machines of today: their published figures",
		Intro: "std:slingshot (a dragonfly of 64-port Rosetta switches; De Sensi et al., SC20), std:ib-ndr (a two-level fat tree of 64-port Quantum-2 NDR switches over multi-core nodes), std:tofud (Fugaku's 6-D mesh/torus; Ajima et al., Cluster 2018) and std:dgx-h100 (eight GPUs on an NVSwitch fabric a node, nodes on rail-optimised NDR leaves): each file cites its sources and marks the figures they do not give as assumptions. The published figures are held exactly (counts) or within the stated tolerance.",
		Rows:  rows,
	}
}
