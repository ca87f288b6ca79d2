package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/eval/study"
)

// loadMeasured reads sweep --measured: the file's times by message size
// (fit.MedianTimes), of the pair --src and --dst choose (nil: any).
func loadMeasured(path string, maxMemory int64, src, dst *int) (*fit.Medians, error) {
	data, err := eval.ReadInput(path, maxMemory)
	if err != nil {
		return nil, err
	}
	t, err := fit.Read(path, data)
	if err != nil {
		return nil, err
	}
	mt, err := fit.MedianTimes(t, src, dst, "the sweep times one")
	var pe *fit.PairsError
	if errors.As(err, &pe) {
		return nil, usageError("parasol sweep: --measured %s holds times of %d pairs (%s): %s; choose one with --src and --dst", path, len(pe.Pairs), strings.Join(pe.Columns, ", "), strings.Join(pe.Pairs, ", "))
	}
	return mt, err
}

// checkMeasured refuses measurements of which none is at a size the
// sweep has: the sweep would print as if no file had been given, and
// 2KB beside 2KiB looks like a match that is not one.
func checkMeasured(mt *fit.Medians, path string, swept []int64) error {
	var have, want, from []string
	for _, n := range swept {
		if _, ok := mt.Times[n]; ok {
			return nil
		}
		want = append(want, fit.SizeLiteral(n))
	}
	for _, n := range mt.Sizes() {
		have = append(have, fit.SizeLiteral(n))
	}
	if len(have) == 0 {
		have = []string{"none"}
	}
	for _, e := range mt.Pair {
		from = append(from, fmt.Sprintf("%s %d", e.Column, e.ID))
	}
	pair := ""
	if len(from) > 0 {
		pair = " from " + strings.Join(from, " to ")
	}
	return usageError("parasol sweep: --measured %s: no measurement at a size the sweep has (measured %s%s; swept %s)", path, strings.Join(have, ", "), pair, strings.Join(want, ", "))
}

// printMeasuredLine follows a point's text line with the measured time
// of its size and the figure's error against it.
func printMeasuredLine(w io.Writer, measured map[int64]float64, r *study.Result) {
	m, ok := measured[r.Point.Size]
	if !ok {
		return
	}
	fig, name := 0.0, ""
	switch {
	case r.Compare != nil:
		fig, name = r.Compare.Analytic, "analytic"
	case r.Sim.Messages > 0:
		fig, name = r.Sim.Latency.Mean, "mean latency"
	default:
		fig, name = r.Sim.Makespan, "makespan"
	}
	fmt.Fprintf(w, "  measured %s: %s %s\n", dur(m), name, signedPercent((fig-m)/m))
}
