package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/parasol-lang/parasol/runtime"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// A 4 KB message between opposite corners of a 3-cube, cut-through.
func ExampleSimulate() {
	g, _ := topo.Generate("hypercube", []int{3}, topo.GenerateOptions{})
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
	g, _ := topo.Generate("torus", []int{4, 4}, topo.GenerateOptions{})
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
	g, _ := topo.Generate("hypercube", []int{3}, topo.GenerateOptions{})
	spec := &runtime.Spec{Graph: g, DefaultLink: runtime.LinkParams{Bandwidth: 1e6}}
	path, _ := runtime.Route(spec, 0b010, 0b111, runtime.RouteOptions{Routing: "ecube"})
	fmt.Println(path)
	// Output: [2 3 7]
}
