package eval

import (
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
)

// chainSource writes a machine of n links, each referring to the next:
// link(i) is the text of link i given the names of links i and i+1, last
// the text of the final one.
func chainSource(n int, link func(i int) string, last string) string {
	var b strings.Builder
	b.WriteString("machine \"chain\" {\n")
	for i := range n - 1 {
		b.WriteString(link(i))
		b.WriteByte('\n')
	}
	b.WriteString(last)
	b.WriteString("\n}\n")
	return b.String()
}

// withSmallStack runs f with the goroutine stack limit at limit bytes, so
// that evaluation whose stack grows with the input crashes the test instead
// of passing on a machine with memory to spare.
func withSmallStack(t *testing.T, limit int, f func()) {
	t.Helper()
	old := debug.SetMaxStack(limit)
	defer debug.SetMaxStack(old)
	f()
}

// TestReferenceChainsUseBoundedStack: chains of references through params,
// functions and labelled blocks are evaluated correctly within an 8 MB
// stack; recursive evaluation needs about 5 KB of stack per link, so
// 40,000 links would need 200 MB.
func TestReferenceChainsUseBoundedStack(t *testing.T) {
	const n = 40_000
	tests := []struct {
		name  string
		src   string
		query string
		want  float64
	}{
		{"params", chainSource(n,
			func(i int) string { return fmt.Sprintf("\tparam p%d = p%d + 1", i, i+1) },
			fmt.Sprintf("\tparam p%d = 1", n-1)), "p0", n},
		{"params through functions", chainSource(n,
			func(i int) string { return fmt.Sprintf("\tparam p%d = f%d(1)\n\tf%d(x) = p%d + x", i, i, i, i+1) },
			fmt.Sprintf("\tparam p%d = 1", n-1)), "p0", n},
		{"processors by label", chainSource(n,
			func(i int) string {
				return fmt.Sprintf("\tprocessor %d { mantissa = processor(%d).mantissa + 1 }", i, i+1)
			},
			fmt.Sprintf("\tprocessor %d { mantissa = 1 }", n-1)), "processor(0).mantissa", n},
		{"labels that are params", chainSource(n,
			func(i int) string {
				return fmt.Sprintf("\tparam k%d = %d\n\tprocessor %d { mantissa = processor(k%d).mantissa + 1 }", i+1, i+1, i, i+1)
			},
			fmt.Sprintf("\tprocessor %d { mantissa = 1 }", n-1)), "processor(0).mantissa", n},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withSmallStack(t, 8<<20, func() {
				m, err := LoadSource("chain.machine", tt.src)
				if err != nil {
					t.Fatal(clip(err.Error()))
				}
				v, err := m.Eval(tt.query)
				if err != nil || v.Num != tt.want {
					t.Fatalf("%s = %v, %v; want %g", tt.query, v, err, tt.want)
				}
			})
		})
	}
}

// TestQuarterMillionParamChain is the chain from issue 8, which used to
// overflow the goroutine stack: 250,000 params, each the next plus one.
func TestQuarterMillionParamChain(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a 6 MB machine")
	}
	const n = 250_000
	src := chainSource(n,
		func(i int) string { return fmt.Sprintf("param p%d = p%d + 1", i, i+1) },
		fmt.Sprintf("param p%d = 1", n-1))
	m, err := LoadSource("chain.machine", src)
	if err != nil {
		t.Fatal(clip(err.Error()))
	}
	for _, q := range []struct {
		name string
		want float64
	}{{"p0", n}, {"p100000", n - 100000}, {fmt.Sprintf("p%d", n-1), 1}} {
		if v, err := m.Param(q.name); err != nil || v.Num != q.want {
			t.Errorf("%s = %v, %v; want %g", q.name, v, err, q.want)
		}
	}
}

// TestLongReferenceCycleReportIsBounded: a cycle through a long chain is
// reported once, with its first and last steps and how many lie between,
// each step where its reference stands.
func TestLongReferenceCycleReportIsBounded(t *testing.T) {
	const n = 40_000
	src := chainSource(n,
		func(i int) string { return fmt.Sprintf("\tparam p%d = p%d + 1", i, i+1) },
		fmt.Sprintf("\tparam p%d = p0", n-1))
	var err error
	withSmallStack(t, 8<<20, func() { _, err = LoadSource("chain.machine", src) })
	if err == nil {
		t.Fatal("a cycle loaded")
	}
	msg := err.Error()
	for _, want := range []string{
		"chain.machine:2:8: reference cycle: p0 → p1 → ",
		fmt.Sprintf(" → p31 → … %d more steps … → p%d → ", n-maxCycleSteps, n-maxCycleSteps/2),
		fmt.Sprintf(" → p%d → p0\n", n-1),
		"chain.machine:2:13: p0 refers to p1\n",
		fmt.Sprintf("\n… %d more steps …\n", n-maxCycleSteps),
		fmt.Sprintf("chain.machine:%d:%d: p%d refers to p0\n", n+1, len(fmt.Sprintf("\tparam p%d = ", n-1))+1, n-1),
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the report lacks %q:\n%s", want, clip(msg))
		}
	}
	if got := strings.Count(msg, " refers to "); got != maxCycleSteps {
		t.Errorf("the report lists %d steps, want %d", got, maxCycleSteps)
	}
	if strings.Count(msg, "reference cycle") != 1 {
		t.Errorf("the cycle is reported more than once:\n%s", clip(msg))
	}
}

// TestRecursionAndNestingStayBounded: runaway function recursion and deep
// nesting end in positioned errors, even within a small stack.
func TestRecursionAndNestingStayBounded(t *testing.T) {
	deepCalls := chainSource(2000,
		func(i int) string { return fmt.Sprintf("\tf%d(x) = f%d(x) + 1", i, i+1) },
		"\tf1999(x) = x")
	tests := []struct {
		name, src, query, want string
	}{
		{"self recursion", "machine \"r\" {\n\tdeep(n) = deep(n + 1)\n}\n", "deep(0)",
			"r.machine:2:12: calls nested deeper than 256 (runaway recursion in deep?)"},
		{"a chain of 2000 functions", deepCalls, "f0(1)",
			"r.machine:257:12: calls nested deeper than 256 (runaway recursion in f256?)"},
		{"nested brackets", "machine \"r\" {\n\tparam x = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "\n}\n", "x",
			"r.machine:2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withSmallStack(t, 8<<20, func() {
				m, err := LoadSource("r.machine", tt.src)
				if err == nil {
					var v any
					v, err = m.Eval(tt.query)
					if err == nil {
						t.Fatalf("%s = %v, want an error", tt.query, v)
					}
				}
				if !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error:\n%s\nwant it to contain %q", clip(err.Error()), tt.want)
				}
			})
		})
	}
}

// clip shortens a long error for a test log.
func clip(s string) string {
	if len(s) > 3000 {
		return s[:1500] + "\n…\n" + s[len(s)-1500:]
	}
	return s
}
