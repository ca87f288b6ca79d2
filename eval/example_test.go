package eval_test

import (
	"context"
	"fmt"
	"log"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/runtime"
)

const pipeline = `machine "pipeline" {
	param alpha = 100ns   # time per byte on a link
	param gamma = 500ns   # channel set-up
	processor h1 { send_overhead = gamma }
	topology t = chain(4) {
		speed = 1B / alpha
		latency = 20ns
	}
	modelsection MPI {
		send(n: B, src, dst) = gamma + n * alpha / 1B + hops(src, dst) * 20ns
	}
}`

// Load a machine, ask for a parameter, a derived index and a primitive's
// cost.
func Example() {
	m, err := eval.LoadSource("pipeline.machine", pipeline)
	if err != nil {
		log.Fatal(err)
	}
	speed, _ := m.Eval("topology(t).speed")
	diameter, _ := m.Eval("diameter")
	cost, err := m.Call("MPI.send", 1024, 0, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(speed, diameter, cost)
	// Output: 10MB/s 3 102.96us
}

// Derive a virtual machine with faster links: everything that depends on
// alpha changes.
func ExampleMachine_Derive() {
	m, err := eval.LoadSource("pipeline.machine", pipeline)
	if err != nil {
		log.Fatal(err)
	}
	fast, err := m.Derive(eval.Set{Path: "alpha", Value: "50ns"})
	if err != nil {
		log.Fatal(err)
	}
	before, _ := m.Call("MPI.send", "1KB", 0, 1)
	after, _ := fast.Call("MPI.send", "1KB", 0, 1)
	fmt.Println(before, "→", after)
	// Output: 100.52us → 50.52us
}

// Compile a primitive once and call it many times, as a performance
// predictor would.
func ExampleMachine_Func() {
	m, err := eval.LoadSource("pipeline.machine", pipeline)
	if err != nil {
		log.Fatal(err)
	}
	send, err := m.Func("MPI.send")
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range []string{"0B", "32B", "1KB"} {
		size, _ := eval.ToValue(n)
		src, _ := eval.ToValue(0)
		dst, _ := eval.ToValue(2)
		v, _ := send.Call(size, src, dst)
		fmt.Println(n, v)
	}
	// Output:
	// 0B 540ns
	// 32B 3.74us
	// 1KB 100.54us
}

// Errors carry positions and point at the source.
func ExampleLoadSource_error() {
	_, err := eval.LoadSource("bad.machine", `machine "bad" {
	param h_in = 70ns
	param x = h_inn * 2
}`)
	fmt.Println(err)
	// Output:
	// bad.machine:3:12: unknown name h_inn (did you mean "h_in"?)
	//      param x = h_inn * 2
	//                ^~~~~
}

// The XK-XMP-64 compiled into the runtime's network description, and one
// 4 KB message simulated on it from processor 0 to processor 63.
func ExampleMachine_Spec() {
	m, err := eval.Load("std:xmp64")
	if err != nil {
		panic(err)
	}
	spec, err := m.Spec("")
	if err != nil {
		panic(err)
	}
	src, dst := 0, 63
	res, err := runtime.Simulate(context.Background(), spec, runtime.Options{Op: "send", Size: 4096, Src: &src, Dst: &dst})
	if err != nil {
		panic(err)
	}
	fmt.Println(spec.Graph.NumProcs(), "processors,", spec.Switching, "switching")
	fmt.Printf("latency %.4g µs\n", res.Latency.Mean*1e6)
	// Output:
	// 64 processors, wormhole switching
	// latency 61.92 µs
}

// MPI.bcast of std:xmp64's model section beside a simulated binomial
// broadcast of 1 KB messages over all 64 processors.
func ExampleCompare() {
	m, err := eval.Load("std:xmp64")
	if err != nil {
		panic(err)
	}
	spec, err := m.Spec("")
	if err != nil {
		panic(err)
	}
	c, err := eval.Compare(context.Background(), m, spec, "MPI.bcast", runtime.Options{Size: 1024})
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Op, c.Metric)
	fmt.Printf("analytic %.4g µs, simulated %.4g µs (%+.1f%%)\n", c.Analytic*1e6, c.Simulated*1e6, 100*c.Difference)
	// Output:
	// broadcast makespan
	// analytic 74.33 µs, simulated 74.33 µs (+0.0%)
}

// Inspect reports what `parasol check` does: a ring of four processors
// with wormhole switching and shortest-path routing loads, but its
// channels can wait for each other in a cycle.
func ExampleInspect() {
	ring := `machine "ring" {
	processor p { send_overhead = 1us }
	topology t = ring(4) { latency = 10ns; speed = 100MB/s; routing = shortest }
}
`
	names, ds := eval.Inspect("ring.machine", eval.WithReadFile(func(string) ([]byte, error) { return []byte(ring), nil }))
	fmt.Println(names)
	for _, d := range ds {
		fmt.Println(d.Severity, d.Msg)
	}
	// Output:
	// [ring]
	// warning routing shortest of topology t can deadlock under wormhole switching (the default; set switching = … to choose): these channels can wait for each other in a cycle: 0->1 → 1->2 → 2->3 → 3->0 → 0->1
}
