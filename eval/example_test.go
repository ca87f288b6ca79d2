package eval_test

import (
	"fmt"
	"log"

	"github.com/parasol-lang/parasol/eval"
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
