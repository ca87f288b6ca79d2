package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/eval/study"
	"github.com/parasol-lang/parasol/lang"
)

// measuredTimes are sweep --measured's times by message size: the median
// of the file's rows of each size.
type measuredTimes map[int64]float64

// endpoint is --src or --dst as the sweep was given it: rows of another
// pair are not the sweep's.
type endpoint struct {
	col string // the column naming it
	n   int
	set bool
}

// loadMeasured reads a file of measurements with a size column (n, size
// or bytes) and a time column, as parasol fit reads them. Where the file
// has src and dst columns only the sweep's pair counts, so that the times
// of several pairs are not mixed into one median; it returns what was
// kept (" from src 0 to dst 1") for messages.
func loadMeasured(path string, maxMemory int64, ends ...endpoint) (measuredTimes, string, error) {
	data, err := eval.ReadInput(path, maxMemory)
	if err != nil {
		return nil, "", err
	}
	t, err := fit.Read(path, data)
	if err != nil {
		return nil, "", err
	}
	start := lang.Pos{Src: t.Src, Line: 1, Col: 1}
	times := t.Column("time")
	if times == nil {
		return nil, "", lang.Errorf(start, "no column time of measured times; the columns are %s", strings.Join(t.Names(), ", "))
	}
	if !times.Unitless && times.Dim != lang.TimeDim {
		return nil, "", lang.Errorf(times.Header, "column time holds a %s, not a time", times.Dim.Name())
	}
	var sizes *fit.Column
	for _, n := range fit.PrimitiveColumns["n"] {
		if sizes = t.Column(n); sizes != nil {
			break
		}
	}
	if sizes == nil {
		return nil, "", lang.Errorf(start, "no column of message sizes (size, n or bytes); the columns are %s", strings.Join(t.Names(), ", "))
	}
	keep, pair, err := pairRows(path, t, ends)
	if err != nil {
		return nil, "", err
	}
	if err := oneMessage(t, keep, "the sweep times one"); err != nil {
		return nil, "", err
	}
	by := map[int64][]float64{}
	for r, v := range sizes.Values {
		if (!sizes.Unitless && sizes.Dim != lang.SizeDim) || v < 0 || v != float64(int64(v)) {
			return nil, "", lang.Errorf(sizes.Cells[r], "column %s: want a whole number of bytes", sizes.Name)
		}
		if keep(r) {
			by[int64(v)] = append(by[int64(v)], times.Values[r])
		}
	}
	out := measuredTimes{}
	for size, ts := range by {
		sort.Float64s(ts)
		out[size] = (ts[(len(ts)-1)/2] + ts[len(ts)/2]) / 2
	}
	return out, pair, nil
}

// pairRows says which rows are of the sweep's pair: those whose src and
// dst columns match the ends given, or, without them, every row of a file
// that holds one pair.
func pairRows(path string, t *fit.Table, ends []endpoint) (func(int) bool, string, error) {
	var cols []*fit.Column
	var want []endpoint
	for _, e := range ends {
		if c := t.Column(e.col); c != nil {
			cols, want = append(cols, c), append(want, e)
		}
	}
	all := func(int) bool { return true }
	if len(cols) == 0 {
		return all, "", nil
	}
	given := false
	for _, e := range want {
		given = given || e.set
	}
	if !given {
		seen := map[string]bool{}
		var pairs []string
		for r := 0; r < t.Rows; r++ {
			var key []string
			for _, c := range cols {
				key = append(key, lang.FormatNumber(c.Values[r]))
			}
			k := strings.Join(key, " ")
			if !seen[k] {
				seen[k] = true
				pairs = append(pairs, k)
			}
		}
		if len(pairs) > 1 {
			var names []string
			for _, c := range cols {
				names = append(names, c.Name)
			}
			return nil, "", usageError("parasol sweep: --measured %s holds times of %d pairs (%s): %s; choose one with --src and --dst", path, len(pairs), strings.Join(names, ", "), strings.Join(pairs, ", "))
		}
		return all, "", nil
	}
	var from []string
	for _, e := range want {
		if e.set {
			from = append(from, fmt.Sprintf("%s %d", e.col, e.n))
		}
	}
	keep := func(r int) bool {
		for i, c := range cols {
			if want[i].set && c.Values[r] != float64(want[i].n) {
				return false
			}
		}
		return true
	}
	return keep, " from " + strings.Join(from, " to "), nil
}

// check refuses measurements of which none is at a size the sweep has:
// the sweep would print as if no file had been given, and 2KB beside
// 2KiB looks like a match that is not one.
func (mt measuredTimes) check(path, pair string, swept []int64) error {
	var have, want []string
	for _, n := range swept {
		if _, ok := mt[n]; ok {
			return nil
		}
		want = append(want, fit.SizeLiteral(n))
	}
	for _, n := range slices.Sorted(maps.Keys(mt)) {
		have = append(have, fit.SizeLiteral(n))
	}
	if len(have) == 0 {
		have = []string{"none"}
	}
	return usageError("parasol sweep: --measured %s: no measurement at a size the sweep has (measured %s%s; swept %s)", path, strings.Join(have, ", "), pair, strings.Join(want, ", "))
}

// printMeasuredLine follows a point's text line with the measured time
// of its size and the figure's error against it.
func printMeasuredLine(w io.Writer, measured measuredTimes, r *study.Result) {
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
