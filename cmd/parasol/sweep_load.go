package main

import (
	"fmt"
	"io"
	"strings"

	prt "github.com/parasol-lang/parasol/runtime"
)

// sweepLoadJSON is one line of an open-loop sweep's JSON: the point's
// index and the sweep's count, then sim --load's object for the point.
type sweepLoadJSON struct {
	Point  int `json:"point"`
	Points int `json:"points"`
	*prt.LoadResult
	Run *runInfo `json:"run"`
}

func emitLoad(w io.Writer, format string, p sweepPoint, total int, r pointResult) error {
	switch format {
	case outJSON:
		return newJSON(w).Encode(sweepLoadJSON{p.index, total, r.load, r.run})
	case outCSV:
		return csvRows(w, [][]string{append(sweepCSVParams(p, total, r.run), loadCSVRow(r.load)...)})
	}
	printSweepLine(w, p, total, r)
	return nil
}

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
