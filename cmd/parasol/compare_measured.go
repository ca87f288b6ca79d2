package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// compareMeasured is compare --measured: the primitive's analytic cost at
// every row of a file of measurements, beside the measured time and the
// relative error. Parameters without a column take compare's defaults
// (--size, --src, --dst; p every processor, k the others).
func compareMeasured(e *env, format string, m *eval.Machine, rs *runtime.Spec, sf *simFlags, source, primitive, file string) error {
	mf := &sf.machineFlags
	f, err := namedFunc(m, "compare", primitive)
	if err != nil {
		return err
	}
	text, err := eval.ReadInput(file, mf.memory())
	if err != nil {
		return err
	}
	t, err := fit.Read(file, text)
	if err != nil {
		return err
	}
	g := rs.Graph
	procs := g.NumProcs()
	opts := sf.options()
	src, dst := g.ID(g.Proc(0)), g.ID(g.Proc(procs-1))
	if opts.Src != nil {
		src = *opts.Src
	}
	if opts.Dst != nil {
		dst = *opts.Dst
	}
	size := float64(eval.CompareSize)
	if sf.size.set {
		size = float64(opts.Size)
	}
	c, err := fit.CheckPrimitive(f, primitive, t, fit.Defaults{Size: size, Src: src, Dst: dst, Procs: procs})
	if err != nil {
		return err
	}
	switch format {
	case outJSON:
		return results.NewEncoder(e.stdout).Encode(newMeasuredJSON(c, primitive, newRunInfo("compare", source, m, mf)))
	case outCSV:
		header := append(append([]string{"line"}, c.Params...), "predicted", "measured", "error")
		var rows [][]string
		for _, r := range c.Rows {
			row := make([]string, 0, len(header))
			row = append(row, strconv.Itoa(r.Line))
			for _, a := range r.Args {
				row = append(row, results.Float(a.Num))
			}
			rows = append(rows, append(row, results.Float(r.Predicted), results.Float(r.Measured), results.Float(r.Error)))
		}
		return results.WriteTable(e.stdout, header, rows)
	}
	printMeasured(e.stdout, c, primitive, m.Name(), file)
	return nil
}

// namedFunc looks up a function named on the command line. One the
// machine does not have is a usage error.
func namedFunc(m *eval.Machine, command, path string) (*eval.Func, error) {
	f, err := lookupFunc(m, path)
	if err != nil {
		return nil, usageError("parasol %s: %s: %v", command, path, err)
	}
	return f, nil
}

// lookupFunc is m.Func(path) with an error of one diagnostic said as its
// message alone: the excerpt and caret of a one-line source would only
// repeat what was typed.
func lookupFunc(m *eval.Machine, path string) (*eval.Func, error) {
	f, err := m.Func(path)
	if err != nil {
		var ds lang.Diagnostics
		ds.Append(unwrapDiagnostics(err))
		if len(ds) == 1 {
			err = errors.New(ds[0].Msg)
		}
		return nil, err
	}
	return f, nil
}

func printMeasured(w io.Writer, c *fit.Checked, primitive, machine, file string) {
	var fed []string
	for i, p := range c.Params {
		if c.Fed[i] == "" {
			fed = append(fed, p+" (default)")
		} else if c.Fed[i] != p {
			fed = append(fed, p+" from "+c.Fed[i])
		}
	}
	fmt.Fprintf(w, "%s on %s beside %d measurement%s from %s", primitive, machine, len(c.Rows), plural(len(c.Rows)), file)
	if len(fed) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(fed, ", "))
	}
	fmt.Fprintln(w)
	var rows [][]string
	header := append(append([]string{"line"}, c.Params...), "predicted", "measured", "error")
	for _, r := range c.Rows {
		row := []string{fmt.Sprint(r.Line)}
		for _, a := range r.Args {
			row = append(row, fit.Literal(a.Num, a.Dim))
		}
		rows = append(rows, append(row, lang.FormatQuantitySig(r.Predicted, c.Dim, 4), lang.FormatQuantitySig(r.Measured, c.Dim, 4), signedPercent(r.Error)))
	}
	width := make([]int, len(header))
	for _, row := range append([][]string{header}, rows...) {
		for i, cell := range row {
			width[i] = max(width[i], len([]rune(cell)))
		}
	}
	for _, row := range append([][]string{header}, rows...) {
		var b strings.Builder
		for i, cell := range row {
			fmt.Fprintf(&b, "  %*s", width[i], cell)
		}
		fmt.Fprintln(w, b.String())
	}
	fmt.Fprintf(w, "mean |error| %s, worst %s at line %d\n", strings.TrimPrefix(signedPercent(c.MeanAbs), "+"), signedPercent(c.Worst), c.Rows[c.WorstRow].Line)
}

// signedPercent is a relative difference as a signed percentage, 0 shown
// as +0.00% (no "-0.00%").
func signedPercent(f float64) string {
	p := 100 * f
	if p > -0.005 && p < 0.005 {
		p = 0 // no "-0.00%"
	}
	return fmt.Sprintf("%+.2f%%", p)
}

// measuredJSON is compare --measured --format json.
type measuredJSON struct {
	Primitive string        `json:"primitive"`
	Params    []string      `json:"params"`
	Unit      string        `json:"unit"`
	Rows      []measuredRow `json:"rows"`
	MeanAbs   float64       `json:"mean_abs_error"`
	Worst     float64       `json:"worst_error"`
	Run       *results.Run  `json:"run"`
}

type measuredRow struct {
	Line      int       `json:"line"`
	Args      []float64 `json:"args"`
	Predicted float64   `json:"predicted"`
	Measured  float64   `json:"measured"`
	Error     float64   `json:"error"`
}

func newMeasuredJSON(c *fit.Checked, primitive string, run *results.Run) measuredJSON {
	j := measuredJSON{Primitive: primitive, Params: c.Params, Unit: c.Dim.Unit(), MeanAbs: c.MeanAbs, Worst: c.Worst, Run: run, Rows: []measuredRow{}}
	for _, r := range c.Rows {
		row := measuredRow{Line: r.Line, Predicted: r.Predicted, Measured: r.Measured, Error: r.Error}
		for _, a := range r.Args {
			row.Args = append(row.Args, a.Num)
		}
		j.Rows = append(j.Rows, row)
	}
	return j
}
