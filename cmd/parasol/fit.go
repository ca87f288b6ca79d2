package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/lang"
)

// fitCmd is parasol fit.
var fitCmd = &command{
	name:    "fit",
	summary: "fit a cost model's parameters to measurements",
	args:    "[flags] MODEL DATA | --free A,B,... [flags] MACHINE FUNCTION DATA",
	doc: `
Fit finds the parameters of a cost model that best match measurements. DATA
is CSV (a header row naming the columns, '#' comment lines) or JSON lines
({"size": 1024, "hops": 2, "time": "31us"}); a header may give a column's
unit, "time (us)", and a cell its own, "31us", "1KB", "0.7us/B". The column
time (or the one --y names) is fitted; the others feed the model. A time of
0 or below, a negative size, or sizes in a fitted column of times (a column
named time, or any a seed model fits) is refused at its row.

MODEL is one of the seed models:
` + fitModelTable() + `
or any function of a machine, with --free naming the parameters to fit:
  parasol fit --free a,b,c,d std:analytic tiny_latency points.csv
Columns named like the function's other parameters feed them. A free
parameter may have a starting value, whose unit also fixes its dimension
(--free 'ts,bw=100MB/s'); without one its dimension is the one that makes
the function a time (or whatever the fitted column holds). A free name
that is not the function's may be any param of the machine the function
reads, directly or through other fields (a link's latency and speed under
MPI.send): the machine is derived with each value tried, as --set would,
and the param starts at its value in the machine:
  parasol fit --free ts,tw std:analytic MPI.send sends.csv

--fix holds parameters at values instead of fitting them, NAME=VALUE with
the value's unit, for a seed model or a function: LogGP's g, say, where no
train in the data is paced by the gap and the fit cannot tell it:
  parasol fit --fix g=0s loggp loopback.csv
The fixed values follow the fitted ones in the output and the param block
(in JSON a "fixed" object, {NAME: {"value", "unit"}}; CSV lists the fitted).

A model linear in its free parameters (checked numerically) is solved by
least squares; any other by Levenberg–Marquardt. --relative weighs each
point by 1/time, for measurements from bytes to megabytes whose noise grows
with the time. The output gives each
value with its unit and standard error, R², the largest residuals and a
param block to paste into a machine. --format json prints
{"params": {"a": {"value", "unit", "stderr"}, ...}, "r2", "residuals"}
with values in SI base units and residuals (measured - fitted) per row;
--format csv one row per parameter: name, value, unit, stderr.`,
	flags: declareFit,
}

// declareFit declares fit's flags on fs and returns the function that runs it.
func declareFit(e *env, fs *flag.FlagSet) func(pos []string) error {
	var mf machineFlags
	mf.register(fs, e)
	format := registerFormat(fs, `print {"params": {NAME: {"value", "unit", "stderr"}}, "r2", "residuals"}`)
	free := fs.String("free", "", "fit these parameters of FUNCTION, a comma-separated `LIST` of names, each optionally NAME=START (a value with its unit)")
	fix := fs.String("fix", "", "hold parameters at values instead of fitting them, a comma-separated `LIST` of NAME=VALUE (a value with its unit: g=0s)")
	y := fs.String("y", "time", "the `COLUMN` to fit")
	relative := fs.Bool("relative", false, "minimise relative errors (each point weighted by 1/time), for times whose noise grows with them")
	top := fs.Int("residuals", 5, "how many of the largest residuals the text output lists")
	return func(pos []string) error {
		if err := checkCounts("fit", fs, []countFlag{{"residuals", int64(*top), 0, math.MaxInt32}}); err != nil {
			return err
		}
		var p *fit.Problem
		var data string
		switch {
		case *free == "" && len(pos) == 2:
			md, err := fit.Lookup(pos[0])
			if err != nil {
				return usageError("parasol fit: %v", err)
			}
			if p, err = md.Problem(); err != nil {
				return err
			}
			data = pos[1]
		case *free != "" && len(pos) == 3:
			m, err := mf.load(pos[0])
			if err != nil {
				return err
			}
			f, err := namedFunc(m, "fit", pos[1])
			if err != nil {
				return err
			}
			p = &fit.Problem{Name: pos[1], Machine: m, Func: f}
			if p.Free, err = fit.ParseFree(m, *free); err != nil {
				return usageError("parasol fit: %v", err)
			}
			for _, q := range p.Free {
				params := f.Params()
				if slices.Contains(params, q.Name) {
					continue
				}
				// Not the function's own: a param of the machine.
				if v, err := m.Param(q.Name); err == nil && v.Kind == lang.Number {
					continue
				}
				var names []string
				for _, mp := range m.Params() {
					if mp.Value.Kind == lang.Number {
						names = append(names, mp.Path)
					}
				}
				return usageError("parasol fit: --free %s: neither a parameter of %s (%s) nor a numeric param of the machine (%s)%s", q.Name, pos[1], strings.Join(params, ", "), strings.Join(names, ", "), lang.DidYouMean(q.Name, append(params, names...)))
			}
			data = pos[2]
		case *free != "":
			return formArgsError("--free", "parasol fit: with --free, need MACHINE FUNCTION DATA")
		default:
			return formArgsError("MODEL", "parasol fit: need MODEL and DATA (or --free with MACHINE FUNCTION DATA)")
		}
		if *fix != "" {
			fixed, err := fit.ParseFix(p.Machine, *fix)
			if err != nil {
				return usageError("parasol fit: %v", err)
			}
			p.Fixed = fixed
			params := p.Func.Params()
			for _, q := range p.Fixed {
				if !slices.Contains(params, q.Name) {
					return usageError("parasol fit: --fix %s: %s has no parameter %s; its parameters are %s%s", q.Name, p.Name, q.Name, strings.Join(params, ", "), lang.DidYouMean(q.Name, params))
				}
				isFree := func(f fit.Free) bool { return f.Name == q.Name }
				if *free != "" && slices.ContainsFunc(p.Free, isFree) {
					return usageError("parasol fit: %s is both in --free and in --fix", q.Name)
				}
				// A seed model's parameter is fixed instead of fitted.
				p.Free = slices.DeleteFunc(p.Free, isFree)
			}
		}
		p.Y, p.Relative = *y, *relative
		text, err := eval.ReadInput(data, mf.memory())
		if err != nil {
			return err
		}
		t, err := fit.Read(eval.DisplayName(data), text)
		if err != nil {
			return err
		}
		r, err := fit.Fit(p, t)
		if err != nil {
			return err
		}
		switch format.value {
		case outJSON:
			return results.NewEncoder(e.stdout).Encode(fitJSON{r})
		case outCSV:
			var rows [][]string
			for _, q := range r.Params {
				rows = append(rows, []string{q.Name, results.Float(q.Value), q.Dim.Unit(), results.Float(q.Stderr)})
			}
			return results.WriteTable(e.stdout, []string{"name", "value", "unit", "stderr"}, rows)
		}
		printFit(e.stdout, p.Name, eval.DisplayName(data), r, t, *top)
		return nil
	}
}

// fitJSON is fit --format json: the parameters in the model's order, then
// the fixed ones (a "fixed" object only when --fix held some).
type fitJSON struct{ r *fit.Result }

func (f fitJSON) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"params":{`)
	for i, p := range f.r.Params {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(p.Name)
		fmt.Fprintf(&b, `%s:{"value":%s,"unit":%q,"stderr":%s}`, name, jsonFloat(p.Value), p.Dim.Unit(), jsonFloat(p.Stderr))
	}
	b.WriteByte('}')
	if len(f.r.Fixed) > 0 {
		b.WriteString(`,"fixed":{`)
		for i, p := range f.r.Fixed {
			if i > 0 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(p.Name)
			fmt.Fprintf(&b, `%s:{"value":%s,"unit":%q}`, name, jsonFloat(p.Value), p.Dim.Unit())
		}
		b.WriteByte('}')
	}
	fmt.Fprintf(&b, `,"r2":%s,"residuals":[`, jsonFloat(f.r.R2))
	for i, v := range f.r.Residuals {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonFloat(v))
	}
	b.WriteString("]}")
	return b.Bytes(), nil
}

// jsonFloat is a float as JSON text: 12 significant digits, and a float
// even when whole (so cleanJSONNumbers treats it as one).
func jsonFloat(f float64) string {
	s := strconv.FormatFloat(results.Round(f), 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

func printFit(w io.Writer, name, data string, r *fit.Result, t *fit.Table, top int) {
	method := "linear least squares"
	if !r.Linear {
		method = "Levenberg–Marquardt (nonlinear)"
	}
	fmt.Fprintf(w, "%s fitted to %s: %d points, %s\n", name, data, r.Points, method)
	width := 0
	for _, p := range append(r.Params, r.Fixed...) {
		width = max(width, len(p.Name))
	}
	for _, p := range r.Params {
		note := ""
		if p.Stderr > math.Abs(p.Value) {
			note = "   (undetermined: the error exceeds the value)"
		}
		fmt.Fprintf(w, "  %-*s = %-18s ± %s%s\n", width, p.Name, fit.Literal(p.Value, p.Dim), fit.Literal(p.Stderr, p.Dim), note)
	}
	for _, p := range r.Fixed {
		fmt.Fprintf(w, "  %-*s = %-18s   (fixed)\n", width, p.Name, fit.Literal(p.Value, p.Dim))
	}
	fmt.Fprintf(w, "  R² = %s\n", lang.FormatNumber(roundSig(r.R2, 6)))
	exact := true
	for _, v := range r.Residuals {
		exact = exact && v == 0
	}
	switch {
	case exact:
		fmt.Fprintln(w, "residuals: all 0 (the model passes through every point)")
	case top > 0:
		fmt.Fprintln(w, "largest residuals (measured - fitted):")
		for _, i := range r.Largest(top) {
			var cells []string
			for _, c := range t.Columns {
				if c.Name != r.Y {
					cells = append(cells, c.Name+"="+lang.FormatQuantity(c.Values[i], c.Dim))
				}
			}
			fmt.Fprintf(w, "  line %-4d %-12s %s\n", r.Lines[i], signed(fit.Literal(r.Residuals[i], r.YDim)), strings.Join(cells, " "))
		}
	}
	fmt.Fprintln(w, "\nparam block:")
	fmt.Fprint(w, r.ParamBlock(fmt.Sprintf("fitted by parasol fit (%s) to %s", name, data)))
}

func signed(s string) string {
	if strings.HasPrefix(s, "-") {
		return s
	}
	return "+" + s
}

func roundSig(f float64, sig int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', sig, 64), 64)
	return v
}

// fitModelTable lists fit.Models for fit --help.
func fitModelTable() string {
	var b strings.Builder
	for _, m := range fit.Models {
		fmt.Fprintf(&b, "  %-12s %s\n  %-12s columns: %s; %s\n", m.Name, m.Summary, "", fitColumns(m), m.Source)
	}
	return strings.TrimRight(b.String(), "\n")
}

func fitColumns(m fit.Model) string {
	var parts []string
	for _, names := range m.Columns {
		parts = append(parts, orList(names[1:])+" ("+names[0]+")")
	}
	// map order is random; help text must not be
	sort.Strings(parts)
	return strings.Join(append(parts, "time"), ", ")
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
