package main

import (
	"fmt"
	"strings"

	prt "github.com/parasol-lang/parasol/runtime"
)

// printSweepLoad is an open-loop point's figures as text, as a row of
// sim --load's table reads.
func printSweepLoad(b *strings.Builder, l *prt.LoadResult) {
	fmt.Fprintf(b, ": load %s offered %.4g accepted %.4g", loadText(l.Load), l.Offered, l.Accepted)
	if l.Messages > 0 {
		fmt.Fprintf(b, ", latency mean %s p99 %s", dur(l.Latency.Mean), dur(l.Latency.P99))
	}
	if l.Saturated {
		b.WriteString(", SATURATED")
	}
}

// loadText is a load as asked: a share of the injection bandwidth.
func loadText(f float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", f), "0"), ".")
}
