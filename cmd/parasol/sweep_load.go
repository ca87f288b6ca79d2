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
	if l.Marked > 0 {
		bound := "" // a saturated point's latencies are lower bounds
		if l.LatencyBound == "lower" {
			bound = "≥"
		}
		fmt.Fprintf(b, ", latency mean %s%s p99 %s%s", bound, dur(l.Latency.Mean), bound, dur(l.Latency.P99))
	}
	if l.Saturated {
		b.WriteString(", SATURATED (latency a lower bound)")
	}
}

// loadText is a load as asked: a share of the injection bandwidth.
func loadText(f float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", f), "0"), ".")
}
