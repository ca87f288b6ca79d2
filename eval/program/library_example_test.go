package program_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/runtime"
)

// must stops the example at an error; a program would handle it.
func must[T any](v T, err error) T {
	if err != nil {
		log.Fatal(err)
	}
	return v
}

// The library as README.md shows it (a test holds the README's snippet
// equal to this function's body): a machine loaded and queried, a
// primitive's cost, a virtual machine, the network simulated, and a
// program answered analytically and simulated.
func Example_library() {
	ctx := context.Background()
	m := must(eval.Load("std:xmp64"))              // or eval.Load("my.machine"), eval.LoadSource(name, text)
	diameter := must(m.Eval("diameter"))           // any expression of the machine
	cost := must(m.Call("MPI.send", "4KB", 0, 63)) // arguments: Go numbers, strings with units, lang.Values
	send := must(m.Func("MPI.send"))               // compile once, call many times with lang.Values
	n, src, dst := must(eval.ToValue("4KB")), must(eval.ToValue(0)), must(eval.ToValue(63))
	again := must(send.Call(n, src, dst))                           // the same cost
	slow := must(m.Derive(eval.Set{Path: "h_off", Value: "300ns"})) // a virtual machine, as --set makes
	slower := must(slow.Call("MPI.send", "4KB", 0, 63))             // everything that depends on h_off changes
	fmt.Println(diameter, cost, again, slower)

	spec := must(m.Spec("")) // the machine as a network
	res := must(runtime.Simulate(ctx, spec, runtime.Options{Op: "randperm", Size: 32, Runs: 10}))
	fmt.Printf("randperm: %d messages, mean latency %.4g us\n", res.Messages, res.Latency.Mean*1e6)

	prog := must(eval.ParseProgramBody(m, "send(1KB, to: mod(rank + 1, ranks)) recv(from: mod(rank + ranks - 1, ranks))"))
	s := must(prog.Schedule(m, eval.ScheduleOptions{Ranks: 64})) // or eval.LoadProgram("prog.machine")
	ans := must(program.Run(ctx, m, s, program.RunOptions{}))
	fmt.Printf("ring: analytic %.4g us, simulated %.4g us\n", ans.Analytic.Makespan*1e6, ans.Simulated.Makespan*1e6)
	// Output:
	// 6 60.48us 60.48us 160.58us
	// randperm: 628 messages, mean latency 0.8666 us
	// ring: analytic 15.48 us, simulated 15.48 us
}

// README.md's library snippet is Example_library's body as written, so
// that it compiles and runs (issue 26: the snippet called a *eval.Func
// and passed Go numbers where lang.Values are taken).
func TestReadmeShowsTheLibraryExample(t *testing.T) {
	src, err := os.ReadFile("library_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, body, ok := strings.Cut(string(src), "func Example_library() {\n")
	body, _, ok2 := strings.Cut(body, "\n}\n")
	if !ok || !ok2 {
		t.Fatal("library_example_test.go: no func Example_library() { … }")
	}
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```go\n")
	block, _, ok2 = strings.Cut(block, "```\n")
	if !ok || !ok2 {
		t.Fatal("README.md: no ```go block")
	}
	if want := strings.Join(lines, "\n") + "\n"; block != want {
		t.Errorf("README.md's library snippet is not Example_library's body:\n%s\nwant:\n%s", block, want)
	}
}
