package program_test

import (
	"context"
	"fmt"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/program"
)

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
	res, err := program.Run(context.Background(), m, s, program.RunOptions{})
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
