package main

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

// Seed 003 §3.5.3: NX/2 sends messages of fewer than 100 bytes
// asynchronously and longer ones synchronously, and std:ipsc2's simulated
// network follows the size simulated (its message_size param), so compare
// and sim agree with Table 3.5's two columns without a --set:
// T = a + b h + c l over h = 4 links (0 → 15) for l = 150 B is
// 670.6 + 4·30 + 150·0.09 = 804.1 µs, and for l = 50 B
// 367 + 4·10.2 + 50·0.05 = 410.3 µs; within 2% (issue 27's contract).
func TestIPSC2ProtocolFollowsMessageSize(t *testing.T) {
	for _, c := range []struct {
		size  int
		a     float64 // µs
		b, cc float64
	}{{150, 670.6, 30.0, 0.09}, {50, 367, 10.2, 0.05}, {99, 367, 10.2, 0.05}, {4096, 670.6, 30.0, 0.09}} {
		want := (c.a + 4*c.b + float64(c.size)*c.cc) * 1e-6
		var cmp struct{ Simulated, Analytic float64 }
		out := runInProcess(t, "compare", "--json", "std:ipsc2", "MPI.send", "--size", strconv.Itoa(c.size), "--dst", "15")
		if err := json.Unmarshal(out, &cmp); err != nil {
			t.Fatal(err)
		}
		if math.Abs(cmp.Simulated-want) > 0.02*want {
			t.Errorf("compare std:ipsc2 MPI.send --size %d --dst 15: simulated %.5g s, Table 3.5 %.5g s", c.size, cmp.Simulated, want)
		}
		var sim struct {
			Latency struct{ Mean float64 } `json:"latency"`
		}
		out = runInProcess(t, "sim", "--json", "std:ipsc2", "--op", "send", "--size", strconv.Itoa(c.size), "--dst", "15")
		if err := json.Unmarshal(out, &sim); err != nil {
			t.Fatal(err)
		}
		if math.Abs(sim.Latency.Mean-want) > 0.02*want {
			t.Errorf("sim std:ipsc2 --op send --size %d --dst 15: latency %.5g s, Table 3.5 %.5g s", c.size, sim.Latency.Mean, want)
		}
	}
}

// Seed 000 §4: every channel a message is split over costs the H1 γ to
// initialise, even when the message has fewer packets than channels, so
// for n ≤ 32 B one channel is cheaper than several: the makespan over the
// six switches grows by at least 3γ = 1.5 µs from --channels 1 to 4
// (issue 27's contract).
func TestC104OneChannelIsCheapestForShortMessages(t *testing.T) {
	makespan := func(channels string) float64 {
		var r struct{ Makespan float64 }
		out := runInProcess(t, "sim", "--json", "std:c104-chain", "--set", "s=6", "--size", "32", "--channels", channels)
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatal(err)
		}
		return r.Makespan
	}
	const gamma = 500e-9
	one, four := makespan("1"), makespan("4")
	if four-one < 3*gamma*(1-1e-9) {
		t.Errorf("std:c104-chain, s = 6, 32 B: makespan %.4g s on one channel, %.4g s on four; want four channels at least 3γ = 1.5 µs slower", one, four)
	}
}
