package fit

import (
	"fmt"
	"math"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// primitiveColumns are the column names that feed a primitive's usual
// parameters (the names compare fills): a size, the endpoints, the group.
var primitiveColumns = map[string][]string{
	"n": {"n", "size", "bytes"}, "m": {"m", "size", "bytes"},
	"src": {"src", "from", "root"}, "dst": {"dst", "to"},
	"p": {"p", "procs", "nodes"}, "k": {"k"},
}

// Row is one measurement beside the model's prediction.
type Row struct {
	Line      int
	Args      []lang.Value // the function's arguments, in its order
	Predicted float64
	Measured  float64
	// Error is (predicted - measured) / measured.
	Error float64
}

// Checked is a model's predictions beside measurements.
type Checked struct {
	Params []string
	Fed    []string // the column that fed each parameter, "" for a default
	Rows   []Row
	Dim    lang.Dim
	// MeanAbs and Worst are the mean and the largest relative error by
	// magnitude; WorstRow indexes the latter.
	MeanAbs, Worst float64
	WorstRow       int
}

// Check evaluates f at every row of t, its parameters fed by the columns
// named like them (or as columns lists), or else by defaults, and sets
// each prediction beside the row's column y ("time" when empty).
func Check(f *eval.Func, name string, t *Table, y string, columns map[string][]string, defaults map[string]lang.Value) (*Checked, error) {
	if y == "" {
		y = "time"
	}
	start := lang.Pos{Src: t.Src, Line: 1, Col: 1}
	yc := t.Column(y)
	if yc == nil {
		return nil, lang.Errorf(start, "no column %q of measurements; the columns are %s (--y names another)%s", y, strings.Join(t.Names(), ", "), lang.DidYouMean(y, t.Names()))
	}
	c := &Checked{Params: f.Params()}
	feeds := make([]*Column, len(c.Params))
	for i, p := range c.Params {
		names := columns[p]
		if len(names) == 0 {
			names = []string{p}
		}
		for _, n := range names {
			if col := t.Column(n); col != nil && col != yc {
				feeds[i] = col
				break
			}
		}
		switch {
		case feeds[i] != nil:
			c.Fed = append(c.Fed, feeds[i].Name)
		case hasKey(defaults, p):
			c.Fed = append(c.Fed, "")
		default:
			return nil, lang.Errorf(start, "no column for parameter %s of %s: name a column %s (the columns are %s)", p, name, orList(names), strings.Join(t.Names(), ", "))
		}
	}
	target := lang.TimeDim
	if !yc.Unitless {
		target = yc.Dim
	}
	if err := physical(name, f, yc, target, false, feeds, "measured times, with their unit (31us)"); err != nil {
		return nil, err
	}
	sum := 0.0
	for r := 0; r < t.Rows; r++ {
		args := make([]lang.Value, len(c.Params))
		for i, p := range c.Params {
			switch col := feeds[i]; {
			case col == nil:
				args[i] = defaults[p]
			case col.Unitless:
				args[i] = f.Arg(i, lang.Num(col.Values[r]))
			default:
				args[i] = lang.Quantity(col.Values[r], col.Dim)
			}
		}
		v, err := f.Call(args...)
		if err != nil {
			return nil, fmt.Errorf("%s at line %d: %w", name, t.Lines[r], err)
		}
		if v.Kind != lang.Number {
			return nil, fmt.Errorf("%s gives a %s, not a number", name, v.TypeName())
		}
		c.Dim = v.Dim
		if !yc.Unitless && yc.Dim != v.Dim {
			return nil, lang.Errorf(yc.Header, "column %s holds a %s, %s gives a %s", y, yc.Dim.Name(), name, v.Dim.Name())
		}
		meas := yc.Values[r]
		if meas == 0 {
			return nil, lang.Errorf(yc.Cells[r], "a measured %s of 0 has no relative error", y)
		}
		row := Row{Line: t.Lines[r], Args: args, Predicted: v.Num, Measured: meas, Error: (v.Num - meas) / meas}
		c.Rows = append(c.Rows, row)
		sum += math.Abs(row.Error)
		if math.Abs(row.Error) > math.Abs(c.Worst) || r == 0 {
			c.Worst, c.WorstRow = row.Error, r
		}
	}
	c.MeanAbs = sum / float64(len(c.Rows))
	return c, nil
}

func hasKey(m map[string]lang.Value, k string) bool {
	_, ok := m[k]
	return ok
}
