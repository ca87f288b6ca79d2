package lsp

import (
	"fmt"
	"strings"
	"testing"
)

// bigMachine is a 2,000-line machine file of the kinds of statement a
// large description holds: 600 params in chains, 10 processor types, a
// model section of 500 primitives, and an explicit topology of 64
// processors and switches whose 400 links each take a block of three
// lines, switched by wormhole (so check runs its deadlock check too).
func bigMachine() string {
	var b strings.Builder
	b.WriteString("# A 2,000-line machine for the language server's latency benchmark.\nmachine \"big\" {\n")
	lines := 2
	for i := range 600 {
		if i == 0 {
			b.WriteString("\tparam p0 = 1ns\n")
		} else {
			fmt.Fprintf(&b, "\tparam p%d = p%d + %dns\n", i, i-1, i%7+1)
		}
		lines++
	}
	for i := range 10 {
		fmt.Fprintf(&b, "\tprocessor cpu%d {\n\t\tsend_overhead = p%d\n\t\trecv_overhead = %dns\n\t}\n", i, i*10, i+1)
		lines += 4
	}
	b.WriteString("\ttopology net {\n\t\tnode 0 .. 63 = cpu0\n\t\tspeed = 1GB/s\n\t\tswitching = wormhole\n\t\tvcs = 2\n")
	lines += 5
	for i := range 400 {
		a, c := i%64, (i*7+1)%64
		if a == c {
			c = (c + 1) % 64
		}
		fmt.Fprintf(&b, "\t\tlink %d -- %d {\n\t\t\tlatency = p%d\n\t\t}\n", a, c, i)
		lines += 3
	}
	b.WriteString("\t}\n\tmodelsection MPI {\n")
	lines += 2
	for i := 0; lines < 1998; i++ {
		fmt.Fprintf(&b, "\t\top%d(n: B, src, dst) = p%d + n / (1GB/s) * hops(src, dst)\n", i, i%600)
		lines++
	}
	b.WriteString("\t}\n}\n")
	return b.String()
}

// BenchmarkDiagnosticsAfterAnEdit is the time from an edit of a
// 2,000-line file (one param's value changed, as typed) to its
// diagnostics published, through the protocol over pipes: what an editor
// waits for. The budget is 100 ms (docs/PERFORMANCE.md).
func BenchmarkDiagnosticsAfterAnEdit(b *testing.B) {
	text := bigMachine()
	if n := strings.Count(text, "\n"); n != 2000 {
		b.Fatalf("the machine has %d lines, want 2000", n)
	}
	c := start(b)
	c.initialize()
	uri := "file:///tmp/parasol-lsp-bench/big.machine"
	if ds := c.open(uri, text); len(ds) > 0 && ds[0].Severity == 1 {
		b.Fatalf("the benchmark's machine has errors: %+v", ds[0])
	}
	b.ResetTimer()
	for i := range b.N {
		edited := strings.Replace(text, "param p0 = 1ns", fmt.Sprintf("param p0 = %dns", i%9+1), 1)
		if ds := c.change(uri, edited, i+2); len(ds) > 0 && ds[0].Severity == 1 {
			b.Fatalf("an edit made an error: %+v", ds[0])
		}
	}
}
