// Package fit fits the free parameters of a machine-language function to
// measurements: the seed models by name (Models) or any function of a
// machine. A model linear in its free parameters is solved by least
// squares (Householder QR, standard errors from the residual variance and
// (XᵀX)⁻¹); any other by Levenberg–Marquardt.
//
// The same tables of measurements are set beside a model without fitting
// it: Check evaluates a function at every row beside the measured value
// (CheckPrimitive a primitive, compare --measured), and MedianTimes
// reduces a table to one time for each message size, of one pair of
// processors, for a sweep's points.
package fit

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// Free is a parameter to fit: a parameter of the function or, when the
// function has none of that name, a param of the machine (which the
// function may read directly or through other fields; the machine is
// derived with each value tried). Init, when set, is its starting value,
// and its unit fixes the parameter's dimension; without it the dimension
// is the one that makes the function's result that of the fitted column,
// and a machine param starts at its value in the machine, in its unit.
type Free struct {
	Name string
	Init *lang.Value
}

// Fixed is a parameter held at a value: neither fitted nor fed by a
// column (LogGP's g set to 0s where the measurements cannot tell it).
type Fixed struct {
	Name  string
	Value lang.Value
}

// Problem is what to fit: a function, which of its parameters are free,
// which are fixed, and which columns feed the others.
type Problem struct {
	Name    string // for messages: the model or function name
	Machine *eval.Machine
	Func    *eval.Func
	Free    []Free
	Fixed   []Fixed
	// Columns maps a function parameter to the column names that may feed
	// it, in order of preference; a parameter not listed is fed by the
	// column of its own name.
	Columns map[string][]string
	// Y names the fitted column ("time" when empty).
	Y string
	// Relative weighs each point by the inverse of its measured value, so
	// that the fit minimises relative errors: for times whose noise grows
	// with them, as a ping-pong's from bytes to megabytes, where plain
	// least squares would give the small messages no say.
	Relative bool
	// timed says the fitted column must hold times whatever it is named:
	// a seed model's function gives a time.
	timed bool
}

// Param is one fitted parameter, in SI base units of Dim.
type Param struct {
	Name   string
	Value  float64
	Dim    lang.Dim
	Stderr float64
}

// Result is a fit.
type Result struct {
	Params []Param
	// Fixed are the parameters held at the values the problem gave, in
	// its order, with no error.
	Fixed []Param
	R2    float64
	// Residuals are measured minus fitted, per row, in YDim's base unit.
	Residuals []float64
	// Lines are the rows' source lines.
	Lines  []int
	YDim   lang.Dim
	Y      string // the fitted column
	Points int
	Linear bool // solved by linear least squares; otherwise Levenberg–Marquardt
}

// Largest returns the indices of the n largest residuals by magnitude,
// largest first.
func (r *Result) Largest(n int) []int {
	idx := make([]int, len(r.Residuals))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return math.Abs(r.Residuals[idx[a]]) > math.Abs(r.Residuals[idx[b]]) })
	return idx[:min(n, len(idx))]
}

// problem is a Problem bound to a table.
type problem struct {
	*Problem
	t      *Table
	y      *Column
	free   []int          // index of each free parameter in the function's parameters, -1 for a machine param
	feeds  []*Column      // the column of each function parameter (nil for free ones)
	dims   []lang.Dim     // the dimension of each free parameter
	args   [][]lang.Value // per row, the function's arguments with the data filled in
	target lang.Dim
	w      []float64 // each row's weight: 1, or 1/|y| when Relative
	start  []float64 // each parameter's magnitude where Levenberg–Marquardt started
	// nonlinearFit says a rank failure comes from Levenberg–Marquardt's
	// Jacobian, not from the columns of a linear model.
	nonlinearFit bool
	noiseFloor   float64 // noise(), once found; negative before
	// derived is the function in the machine derived with the free
	// machine params at derivedAt (their entries of theta), when any
	// param is one of the machine's.
	derived     *eval.Func
	derivedAt   []float64
	machineFree int // how many free parameters are the machine's
}

// Fit fits p to the measurements of t.
func Fit(p *Problem, t *Table) (*Result, error) {
	pr, err := bind(p, t)
	if err != nil {
		return nil, err
	}
	if err := pr.findDims(); err != nil {
		return nil, err
	}
	res, err := pr.linear()
	if err == errNotLinear {
		res, err = pr.nonlinear()
	}
	if err != nil {
		return nil, err
	}
	res.Lines, res.YDim, res.Y, res.Points = t.Lines, pr.target, pr.y.Name, t.Rows
	for _, f := range p.Fixed {
		v := p.Func.Arg(indexOf(p.Func.Params(), f.Name), f.Value)
		res.Fixed = append(res.Fixed, Param{Name: f.Name, Value: v.Num, Dim: v.Dim})
	}
	res.R2 = rSquared(pr.y.Values, res.Residuals)
	return res, nil
}

func bind(p *Problem, t *Table) (*problem, error) {
	params := p.Func.Params()
	pr := &problem{Problem: p, t: t, feeds: make([]*Column, len(params)), noiseFloor: -1}
	start := lang.Pos{Src: t.Src, Line: 1, Col: 1}
	isFree := map[string]bool{}
	for j, f := range p.Free {
		i := indexOf(params, f.Name)
		if isFree[f.Name] {
			return nil, fmt.Errorf("parameter %s is named twice in the free list", f.Name)
		}
		isFree[f.Name] = true
		if i < 0 {
			v, err := pr.machineParam(f)
			if err != nil {
				return nil, err
			}
			if pr.Problem == p {
				// The problem is copied before a machine param's
				// starting value is filled in: the caller's stays as given.
				cp := *p
				cp.Free = append([]Free(nil), p.Free...)
				pr.Problem = &cp
			}
			if f.Init == nil {
				pr.Free[j].Init = &v
			}
			pr.machineFree++
		}
		pr.free = append(pr.free, i)
	}
	fixed := map[string]lang.Value{}
	for _, f := range p.Fixed {
		switch {
		case indexOf(params, f.Name) < 0:
			return nil, fmt.Errorf("%s has no parameter %q to fix; its parameters are %s%s", p.Name, lang.Excerpt(f.Name), strings.Join(params, ", "), lang.DidYouMean(f.Name, params))
		case isFree[f.Name]:
			return nil, fmt.Errorf("parameter %s is both free and fixed", f.Name)
		case hasKey(fixed, f.Name):
			return nil, fmt.Errorf("parameter %s is fixed twice", f.Name)
		case f.Value.Kind != lang.Number:
			return nil, fmt.Errorf("parameter %s is fixed at a %s, want a number", f.Name, f.Value.TypeName())
		}
		fixed[f.Name] = f.Value
	}
	if len(pr.free) == 0 && len(p.Fixed) > 0 {
		return nil, fmt.Errorf("no free parameters: every parameter of %s to fit is fixed (%s); leave one to fit", p.Name, strings.Join(pr.fixedNames(), ", "))
	}
	if len(pr.free) == 0 {
		return nil, fmt.Errorf("no free parameters: name the parameters of %s to fit (%s)", p.Name, strings.Join(params, ", "))
	}
	yName := p.Y
	if yName == "" {
		yName = "time"
	}
	if pr.y = t.Column(yName); pr.y == nil {
		return nil, lang.Errorf(start, "no column %q to fit; the columns are %s (--y names another)%s", yName, strings.Join(t.Names(), ", "), lang.DidYouMean(yName, t.Names()))
	}
	for i, name := range params {
		if isFree[name] || hasKey(fixed, name) {
			continue
		}
		names := p.Columns[name]
		if len(names) == 0 {
			names = []string{name}
		}
		for _, n := range names {
			if c := t.Column(n); c != nil && c != pr.y {
				pr.feeds[i] = c
				break
			}
		}
		if pr.feeds[i] == nil {
			return nil, lang.Errorf(start, "no column for parameter %s of %s: name a column %s (the columns are %s), or make %s free", name, p.Name, orList(names), strings.Join(t.Names(), ", "), name)
		}
	}
	if t.Rows <= len(pr.free) {
		return nil, lang.Errorf(lang.Pos{Src: t.Src, Line: t.Lines[len(t.Lines)-1], Col: 1}, "too few points: %d free parameter%s (%s) need at least %d measurements, there %s %d", len(pr.free), plural(len(pr.free)), strings.Join(pr.freeNames(), ", "), len(pr.free)+1, isAre(t.Rows), t.Rows)
	}
	pr.target = lang.TimeDim
	if !pr.y.Unitless {
		pr.target = pr.y.Dim
	}
	if err := physical(p.Name, p.Func, pr.y, pr.target, pr.timed, pr.feeds, "measured times, with their unit (31us), or --y naming the column of times"); err != nil {
		return nil, err
	}
	pr.w = make([]float64, t.Rows)
	for r, y := range pr.y.Values {
		pr.w[r] = 1
		if p.Relative {
			if y == 0 {
				return nil, lang.Errorf(pr.y.Cells[r], "a relative fit cannot weigh a %s of 0: every measurement must be nonzero", pr.y.Name)
			}
			pr.w[r] = 1 / math.Abs(y)
		}
	}
	pr.args = make([][]lang.Value, t.Rows)
	for r := range pr.args {
		a := make([]lang.Value, len(params))
		for i, c := range pr.feeds {
			if v, ok := fixed[params[i]]; ok {
				a[i] = v
			}
			if c == nil {
				continue
			}
			if c.Unitless {
				a[i] = lang.Num(c.Values[r])
			} else {
				a[i] = lang.Quantity(c.Values[r], c.Dim)
			}
		}
		pr.args[r] = a
	}
	return pr, nil
}

// physical refuses measurements no machine can produce, before they are
// fitted into parameters that look plausible, or a model is checked
// against them: a column of times y (timed, or named time) holding another
// quantity (a size in the time column would make the model's start-up
// time a size), a measured time of 0 or below, and a negative size in y or
// in any column that feeds f (feeds, by f's parameters; nil where none
// does). target is y's dimension (times for a column without a unit); name
// is f's, and remedy says what a column of times should hold.
func physical(name string, f *eval.Func, y *Column, target lang.Dim, timed bool, feeds []*Column, remedy string) error {
	if (timed || y.Name == "time") && target != lang.TimeDim {
		return lang.Errorf(y.dimAt, "column %s holds %ss (%s), where %s needs times: %s", lang.Excerpt(y.Name), target.Name(), target.Unit(), name, remedy)
	}
	if target == lang.TimeDim {
		if err := positiveTimes(y); err != nil {
			return err
		}
	}
	if target == lang.SizeDim {
		if err := nonnegativeSizes(y, "is the one fitted"); err != nil {
			return err
		}
	}
	params := f.Params()
	for i, c := range feeds {
		if c == nil {
			continue
		}
		dim := c.Dim
		if c.Unitless {
			dim = f.Arg(i, lang.Num(1)).Dim
		}
		if dim == lang.SizeDim {
			if err := nonnegativeSizes(c, fmt.Sprintf("feeds %s of %s", params[i], name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// positiveTimes refuses a time of 0 or below in column c, which holds
// measured times.
func positiveTimes(c *Column) error {
	for r, v := range c.Values {
		if v <= 0 {
			return lang.Errorf(c.Cells[r], "column %s: a measured time of %s; a time is above 0s", lang.Excerpt(c.Name), lang.FormatQuantity(v, lang.TimeDim))
		}
	}
	return nil
}

// nonnegativeSizes refuses a negative value in column c, which holds
// sizes; role says what the column does in the fit.
func nonnegativeSizes(c *Column, role string) error {
	for r, v := range c.Values {
		if v < 0 {
			return lang.Errorf(c.Cells[r], "column %s: a size of %s; a size is 0B or more (the column %s)", lang.Excerpt(c.Name), lang.FormatQuantity(v, lang.SizeDim), role)
		}
	}
	return nil
}

func (pr *problem) fixedNames() []string {
	out := make([]string, len(pr.Fixed))
	for i, f := range pr.Fixed {
		out[i] = f.Name
	}
	return out
}

func (pr *problem) freeNames() []string {
	out := make([]string, len(pr.Free))
	for i, f := range pr.Free {
		out[i] = f.Name
	}
	return out
}

// candidateDims are the dimensions tried for a free parameter without a
// unit, most likely first: a time, a time per byte, a plain number, a
// rate, a size, a frequency.
var candidateDims = []lang.Dim{
	lang.TimeDim,
	{Time: 1, Size: -1},
	lang.Dimensionless,
	{Time: -1, Size: 1},
	{Size: 1},
	{Time: -1},
}

// maxDimSearch bounds the combinations of dimensions tried; beyond it the
// user gives units (--free a=1us).
const maxDimSearch = 50000

// findDims gives each free parameter the dimension that makes the
// function's result that of the fitted column, trying the first row.
func (pr *problem) findDims() error {
	pr.dims = make([]lang.Dim, len(pr.Free))
	var open []int
	for i, f := range pr.Free {
		if f.Init != nil {
			pr.dims[i] = f.Init.Dim
		} else {
			open = append(open, i)
		}
	}
	combos := 1
	for range open {
		combos *= len(candidateDims)
		if combos > maxDimSearch {
			return fmt.Errorf("too many free parameters without units to find their dimensions by trial: give each a starting value with its unit, e.g. --free %s=1us", pr.Free[open[0]].Name)
		}
	}
	// A value can fail where a dimension does not (a / (n - b) at b = n):
	// each combination is tried at a second, unremarkable value too.
	thetas := make([][]float64, 2)
	for t, at := range []float64{1, 1.37} {
		thetas[t] = make([]float64, len(pr.Free))
		for i, f := range pr.Free {
			thetas[t][i] = at
			if f.Init != nil && f.Init.Num != 0 {
				thetas[t][i] = f.Init.Num
			}
		}
	}
	var lastErr error
	choice := make([]int, len(open))
	for n := 0; n < combos; n++ {
		k := n
		for j := range open {
			choice[j] = k % len(candidateDims)
			k /= len(candidateDims)
			pr.dims[open[j]] = candidateDims[choice[j]]
		}
		for _, theta := range thetas {
			v, err := pr.call(0, theta)
			if err != nil {
				lastErr = err
				continue
			}
			if v.Kind == lang.Number && v.Dim == pr.target {
				return nil
			}
			break
		}
	}
	msg := fmt.Sprintf("no units of %s make %s a %s like column %s", strings.Join(pr.freeNames(), ", "), pr.Name, pr.target.Name(), pr.y.Name)
	for _, f := range pr.Fixed {
		if f.Value.Dim == lang.Dimensionless {
			msg += fmt.Sprintf(" (%s is fixed at %s, a plain number: give the value its unit, --fix %s=%ss for a time)", f.Name, lang.FormatNumber(f.Value.Num), f.Name, lang.FormatNumber(f.Value.Num))
			break
		}
	}
	if lastErr != nil {
		return fmt.Errorf("%s; give the parameters starting values with units (--free a=1us,...): %w", msg, lastErr)
	}
	return fmt.Errorf("%s; give the parameters starting values with units (--free a=1us,...)", msg)
}

// machineParam is the value in the machine of a free name that is not a
// parameter of the function: a param of the machine, a number.
func (pr *problem) machineParam(f Free) (lang.Value, error) {
	params := pr.Func.Params()
	v, err := pr.Machine.Param(f.Name)
	if err != nil {
		return v, fmt.Errorf("%s has no parameter %q to fit and %v; its parameters are %s%s", pr.Name, lang.Excerpt(f.Name), err, strings.Join(params, ", "), lang.DidYouMean(f.Name, params))
	}
	if v.Kind != lang.Number {
		return v, fmt.Errorf("param %s of the machine is a %s, not a number to fit", f.Name, v.TypeName())
	}
	if f.Init != nil && f.Init.Dim != v.Dim {
		return v, fmt.Errorf("param %s of the machine is a %s (%s), its starting value %s a %s", f.Name, v.Dim.Name(), v.Dim.Unit(), f.Init.String(), f.Init.Dim.Name())
	}
	return v, nil
}

// funcAt is the function with the free machine params at their entries
// of theta: the machine derived with them set, as --set would, so that
// every field that reads them changes. The last one is kept, as a fit
// tries many rows at each theta.
func (pr *problem) funcAt(theta []float64) (*eval.Func, error) {
	if pr.machineFree == 0 {
		return pr.Func, nil
	}
	var sets []eval.Set
	same := pr.derived != nil
	for i, fi := range pr.free {
		if fi >= 0 {
			continue
		}
		same = same && pr.derivedAt[i] == theta[i]
		sets = append(sets, eval.Set{Path: pr.Free[i].Name, Value: exactLiteral(theta[i], pr.dims[i]), Source: "fit"})
	}
	if same {
		return pr.derived, nil
	}
	m, err := pr.Machine.Derive(sets...)
	if err != nil {
		return nil, err
	}
	f, err := m.Func(pr.Func.Path())
	if err != nil {
		return nil, err
	}
	// A fresh slice: a sample of the problem (sample) copies the cache.
	pr.derived, pr.derivedAt = f, append([]float64(nil), theta...)
	return f, nil
}

// exactLiteral writes v (SI base units of d) as an expression that
// evaluates to exactly v: every digit, times a unit of 1 per dimension.
func exactLiteral(v float64, d lang.Dim) string {
	var b strings.Builder
	b.WriteString("(" + strconv.FormatFloat(v, 'g', -1, 64) + ")")
	writeUnits(&b, d)
	return b.String()
}

// call evaluates the function on row r with the free parameters at theta
// (SI base units).
func (pr *problem) call(r int, theta []float64) (lang.Value, error) {
	fn, err := pr.funcAt(theta)
	if err != nil {
		return lang.Value{}, err
	}
	args := pr.args[r]
	for i, fi := range pr.free {
		if fi >= 0 {
			args[fi] = lang.Quantity(theta[i], pr.dims[i])
		}
	}
	v, err := fn.Call(args...)
	if err == nil && v.Kind != lang.Number {
		err = fmt.Errorf("%s returns a %s, not a number", pr.Name, v.TypeName())
	}
	return v, err
}

// predict evaluates every row; an error or a non-finite value fails it.
func (pr *problem) predict(theta []float64, out []float64) error {
	for r := range pr.args {
		v, err := pr.call(r, theta)
		if err != nil {
			return err
		}
		if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
			return fmt.Errorf("%s is not finite at line %d", pr.Name, pr.t.Lines[r])
		}
		out[r] = v.Num
	}
	return nil
}

func rSquared(y, res []float64) float64 {
	mean := 0.0
	for _, v := range y {
		mean += v
	}
	mean /= float64(len(y))
	sst, ssr := 0.0, 0.0
	for i, v := range y {
		sst += (v - mean) * (v - mean)
		ssr += res[i] * res[i]
	}
	if sst == 0 {
		if ssr == 0 {
			return 1
		}
		return 0
	}
	return 1 - ssr/sst
}

func sumSquares(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return s
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
