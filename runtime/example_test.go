package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/runtime"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// A 4 KB message between opposite corners of a 3-cube, cut-through.
func ExampleSimulate() {
	g, _ := topo.Generate("hypercube", []int{3})
	spec := &runtime.Spec{
		Graph:       g,
		DefaultNode: runtime.NodeParams{SendOverhead: 1e-6},
		DefaultLink: runtime.LinkParams{Latency: 100e-9, Bandwidth: 100e6},
		Switching:   runtime.VCT,
	}
	res, err := runtime.Simulate(context.Background(), spec, runtime.Options{
		Op: "send", Size: 4096, Src: runtime.Node(0), Dst: runtime.Node(7),
	})
	if err != nil {
		panic(err)
	}
	// t_s + l t_h + m t_w = 1 µs + 3 × 0.1 µs + 40.96 µs
	fmt.Printf("%.2f µs over %d hops\n", res.Latency.Mean*1e6, res.Hops.Max)
	// Output: 42.26 µs over 3 hops
}

// The JSON printed by `parasol sim --json`.
func ExampleResult() {
	g, _ := topo.Generate("torus", []int{4, 4})
	spec := &runtime.Spec{Graph: g, DefaultLink: runtime.LinkParams{Latency: 1e-7, Bandwidth: 1e8}, Switching: runtime.SAF}
	res, _ := runtime.Simulate(context.Background(), spec, runtime.Options{Op: "alltoall", Size: 64, Seed: 1})
	fmt.Println(res.Messages, res.Hops.Max, res.Deadlock)
	js, _ := json.Marshal(res.Hops)
	fmt.Println(string(js))
	// Output:
	// 240 4 false
	// {"mean":2.1333333333333333,"max":4}
}

// Example 2.16 of seed 001: e-cube routing from 010 to 111.
func ExampleRoute() {
	g, _ := topo.Generate("hypercube", []int{3})
	spec := &runtime.Spec{Graph: g, DefaultLink: runtime.LinkParams{Bandwidth: 1e6}}
	path, _ := runtime.Route(spec, "ecube", 0b010, 0b111)
	fmt.Println(path)
	// Output: [2 3 7]
}

// A program on the XK-XMP-64 answered both ways: every one of 8 ranks
// passes 1 KB to its right-hand neighbour, then all meet in a barrier.
func ExampleRun() {
	m, err := eval.Load("std:xmp64")
	if err != nil {
		panic(err)
	}
	prog, err := eval.ParseProgramBody(m, "send(1KB, to: mod(rank + 1, ranks)) recv(from: mod(rank + ranks - 1, ranks)) barrier()")
	if err != nil {
		panic(err)
	}
	s, err := prog.Schedule(m, eval.ScheduleOptions{Ranks: 8})
	if err != nil {
		panic(err)
	}
	res, err := runtime.Run(context.Background(), m, s, runtime.RunOptions{})
	if err != nil {
		panic(err)
	}
	d, _ := res.Difference()
	fmt.Printf("analytic %.4g µs, simulated %.4g µs (%+.1f%%)\n", res.Analytic.Makespan*1e6, res.Simulated.Makespan*1e6, 100*d)
	fmt.Println(len(res.Simulated.Ranks), "ranks,", res.Simulated.Messages, "messages simulated")
	// Output:
	// analytic 16.14 µs, simulated 15.54 µs (-3.7%)
	// 8 ranks, 32 messages simulated
}
