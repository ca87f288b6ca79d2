package fit

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

var errNotLinear = errors.New("not linear in the free parameters")

// randomStarts is how many starting points around the parameters' scales
// a nonlinear fit tries besides the systematic ones.
const randomStarts = 24

// linear solves the problem by least squares when the function is linear
// in its free parameters: f(θ) = f(0) + Σ θ_i g_i at every point, which is
// checked numerically at two arbitrary θ (so a model's declaration need
// not say it).
func (pr *problem) linear() (*Result, error) {
	n, k := pr.t.Rows, len(pr.Free)
	f0 := make([]float64, n)
	theta := make([]float64, k)
	if pr.predict(theta, f0) != nil {
		return nil, errNotLinear
	}
	cols := make([][]float64, k)
	for i := range cols {
		cols[i] = make([]float64, n)
		theta[i] = 1
		err := pr.predict(theta, cols[i])
		theta[i] = 0
		if err != nil {
			return nil, errNotLinear
		}
		for r := range cols[i] {
			cols[i][r] -= f0[r]
		}
	}
	got := make([]float64, n)
	for _, probe := range [][2]float64{{1.37, -0.61}, {-2.9, 0.43}} {
		for i := range theta {
			theta[i] = probe[i%2] * (1 + 0.1*float64(i))
			if pr.free[i] < 0 {
				// A machine refuses a negative latency or speed.
				theta[i] = math.Abs(theta[i])
			}
		}
		if pr.predict(theta, got) != nil {
			return nil, errNotLinear
		}
		for r := range got {
			want, mag := f0[r], math.Abs(f0[r])
			for i := range theta {
				want += theta[i] * cols[i][r]
				mag += math.Abs(theta[i] * cols[i][r])
			}
			if math.Abs(got[r]-want) > 1e-9*mag+1e-300 {
				return nil, errNotLinear
			}
		}
	}
	for i := range theta {
		theta[i] = 0
	}
	y := make([]float64, n)
	for r := range y {
		y[r] = (pr.y.Values[r] - f0[r]) * pr.w[r]
		for i := range cols {
			cols[i][r] *= pr.w[r]
		}
	}
	q, err := factor(cols)
	if err != nil {
		return nil, pr.dependent(err, theta)
	}
	x := q.solve(y)
	fitted := make([]float64, n)
	if err := pr.predict(x, fitted); err != nil {
		return nil, err
	}
	res := &Result{Linear: true, Residuals: pr.residuals(fitted)}
	pr.params(res, x, q.covDiag(), cols)
	return res, nil
}

// roundingTol is the share of the largest measurement below which a
// residual, a value's contribution or a standard error is float rounding:
// an exact fit reports 0, not 1e-22 s.
const roundingTol = 1e-12

// noise is roundingTol times the largest measurement by magnitude, found
// once per problem (it is asked for every residual).
func (pr *problem) noise() float64 {
	if pr.noiseFloor < 0 {
		top := 0.0
		for _, v := range pr.y.Values {
			top = math.Max(top, math.Abs(v))
		}
		pr.noiseFloor = roundingTol * top
	}
	return pr.noiseFloor
}

// residuals returns measured minus fitted.
func (pr *problem) residuals(fitted []float64) []float64 {
	out := make([]float64, len(fitted))
	noise := pr.noise()
	for i, y := range pr.y.Values {
		if out[i] = y - fitted[i]; math.Abs(out[i]) <= noise {
			out[i] = 0
		}
	}
	return out
}

// params fills the result's parameters with their standard errors from the
// (weighted) residual variance and the diagonal of (JᵀJ)⁻¹; terms holds
// each parameter's weighted derivative at every point, to tell a value or
// an error that moves no prediction beyond rounding.
func (pr *problem) params(res *Result, x, cov []float64, terms [][]float64) {
	dof := pr.t.Rows - len(x)
	s2 := 0.0
	for r, v := range res.Residuals {
		s2 += v * v * pr.w[r] * pr.w[r]
	}
	s2 /= float64(dof)
	for i, f := range pr.Free {
		p := Param{Name: f.Name, Value: x[i], Dim: pr.dims[i], Stderr: math.Sqrt(s2 * cov[i])}
		scale := 0.0
		for r, v := range terms[i] {
			scale = math.Max(scale, math.Abs(v/pr.w[r]))
		}
		if math.Abs(p.Value)*scale <= pr.noise() {
			p.Value = 0
		}
		if p.Stderr*scale <= pr.noise() {
			p.Stderr = 0
		}
		res.Params = append(res.Params, p)
	}
}

// dependent turns a rank failure into a message naming the parameters the
// points cannot tell apart and the columns their terms vary with.
func (pr *problem) dependent(err error, theta []float64) error {
	var de *dependentError
	if !errors.As(err, &de) {
		return err
	}
	name := pr.Free[de.Col].Name
	cols := pr.varyWith(de.Col, theta)
	at := lang.Pos{Src: pr.t.Src, Line: 1, Col: 1}
	if len(cols) > 0 {
		at = cols[0].Header
	}
	if (de.Zero || len(de.On) == 0) && pr.nonlinearFit {
		return lang.Errorf(at, "%s has no effect on any measurement at the best fit found: changing it a little changes no prediction of %s (it sits in a flat region, such as a gap below every max it is in); measure where it matters, or fix it (--fix %s=VALUE)", name, pr.Name, name)
	}
	if de.Zero || len(de.On) == 0 {
		return lang.Errorf(at, "%s has no effect on any measurement: its term in %s is 0 at every point%s", name, pr.Name, pr.constantNote(cols, false))
	}
	var on []string
	for _, i := range de.On {
		on = append(on, pr.Free[i].Name)
	}
	return lang.Errorf(at, "collinear columns: the measurements cannot separate %s from %s, whose terms in %s are proportional at every point%s", name, strings.Join(on, " and "), pr.Name, pr.constantNote(cols, true))
}

// varyWith lists the columns that free parameter i's term depends on: those
// whose change at the first row changes the term.
func (pr *problem) varyWith(i int, theta []float64) []*Column {
	term := func() float64 {
		t := append([]float64(nil), theta...)
		t[i] += 1
		a, err1 := pr.call(0, t)
		t[i] -= 1
		b, err2 := pr.call(0, t)
		if err1 != nil || err2 != nil {
			return math.NaN()
		}
		return a.Num - b.Num
	}
	base := term()
	var out []*Column
	for fi, c := range pr.feeds {
		if c == nil {
			continue
		}
		saved := pr.args[0][fi]
		pr.args[0][fi].Num = saved.Num*1.5 + 1
		changed := term() != base
		pr.args[0][fi] = saved
		if changed {
			out = append(out, c)
		}
	}
	return out
}

// constantNote says which of the columns never vary, the usual reason for
// collinear terms.
func (pr *problem) constantNote(cols []*Column, proportional bool) string {
	var names, constant []string
	for _, c := range cols {
		names = append(names, c.Name)
		same := true
		for _, v := range c.Values {
			same = same && v == c.Values[0]
		}
		if same {
			constant = append(constant, fmt.Sprintf("%s is %s in every row", c.Name, lang.FormatNumber(c.Values[0])))
		}
	}
	switch {
	case len(constant) > 0:
		return " (" + strings.Join(constant, ", ") + "): measure other values"
	case len(names) > 0 && proportional:
		return " (its term varies with " + strings.Join(names, ", ") + ", in step with the other's): measure other combinations"
	}
	return ""
}

// nonlinear fits by Levenberg–Marquardt with Marquardt's scaling, from the
// given starting values or, for parameters without one, the power of ten
// that fits best with the others held.
func (pr *problem) nonlinear() (*Result, error) {
	// The search for a starting point tries many; on a large file it
	// runs on a sample of the rows, and only the best start is followed
	// on all of them.
	search := pr
	if pr.t.Rows > maxSearchRows {
		search = pr.sample(maxSearchRows)
	}
	theta, err := search.search()
	if err != nil {
		return nil, err
	}
	pr.start = search.start
	if search != pr {
		theta, _ = pr.marquardt(theta, pr.ssr())
	}
	pred := make([]float64, pr.t.Rows)
	pr.nonlinearFit = true
	J, steps, err := pr.jacobian(theta)
	if err != nil {
		return nil, err
	}
	q, err := factor(J)
	if err != nil {
		return nil, pr.dependent(err, theta)
	}
	if err := pr.predict(theta, pred); err != nil {
		return nil, err
	}
	if err := unidentifiable(J, pr.jacobianNoise(J, steps, pred)); err != nil {
		return nil, pr.dependent(err, theta)
	}
	res := &Result{Residuals: pr.residuals(pred)}
	pr.params(res, theta, q.covDiag(), J)
	return res, nil
}

// identTol is the smallest ratio of the smallest singular value of a
// nonlinear fit's Jacobian (its columns scaled to unit length) to the
// largest at which the parameters are told apart, when the Jacobian's
// rounding error (jacobianNoise) is smaller still; a determined fit's
// ratio is far above it (0.27 to 0.58 in this package's fits).
const identTol = 1e-6

// noiseMargin is how many times the Jacobian's rounding error a singular
// value must pass to count as a direction the measurements see.
const noiseMargin = 4

// unidentifiable reports a combination of a nonlinear fit's parameters
// that moves no prediction at the solution, J being the Jacobian there
// (which factor accepted) and noise its rounding error (jacobianNoise): a
// *dependentError naming the parameters of the singular vector of J's
// smallest singular value when that value is below identTol or within
// noiseMargin times the noise, the last of them as the one the others
// cannot be told from, as factor names a dependent column and those it
// depends on. The Jacobian is found by central differences, so columns
// proportional at every point (sqrt(a*a + b*b), where only the sum of
// squares is measured) differ by their rounding and can pass factor's
// rank test, which is for exact columns.
func unidentifiable(J [][]float64, noise float64) error {
	sigma, v := singular(J)
	lo, hi := 0, 0
	for k := range sigma {
		if sigma[k] < sigma[lo] {
			lo = k
		}
		if sigma[k] > sigma[hi] {
			hi = k
		}
	}
	if sigma[lo] >= max(identTol, noiseMargin*noise)*sigma[hi] {
		return nil
	}
	// The parameters with a tenth or more of the largest weight in the
	// combination; at least two, since unit columns are not 0 alone.
	vec := v[lo]
	order := make([]int, len(vec))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return math.Abs(vec[order[a]]) > math.Abs(vec[order[b]]) })
	in := []int{order[0], order[1]}
	for _, i := range order[2:] {
		if math.Abs(vec[i]) >= 0.1*math.Abs(vec[order[0]]) {
			in = append(in, i)
		}
	}
	sort.Ints(in)
	return &dependentError{Col: in[len(in)-1], On: in[:len(in)-1]}
}

// maxSearchRows bounds the rows the search for a starting point uses.
const maxSearchRows = 500

// sample is the problem on m of its rows, drawn with a fixed seed.
func (pr *problem) sample(m int) *problem {
	rows := rand.New(rand.NewPCG(3, 4)).Perm(pr.t.Rows)[:m]
	sort.Ints(rows)
	sub := *pr
	t, y := *pr.t, *pr.y
	t.Rows, t.Lines, y.Values = m, make([]int, m), make([]float64, m)
	sub.args, sub.w = make([][]lang.Value, m), make([]float64, m)
	for j, r := range rows {
		t.Lines[j], y.Values[j], sub.args[j], sub.w[j] = pr.t.Lines[r], pr.y.Values[r], pr.args[r], pr.w[r]
	}
	sub.t, sub.y = &t, &y
	return &sub
}

// ssr returns the weighted sum of squared residuals at theta, +Inf where
// the function cannot be evaluated.
func (pr *problem) ssr() func([]float64) float64 {
	pred := make([]float64, pr.t.Rows)
	return func(t []float64) float64 {
		if pr.predict(t, pred) != nil {
			return math.Inf(1)
		}
		s := 0.0
		for r, v := range pred {
			d := (pr.y.Values[r] - v) * pr.w[r]
			s += d * d
		}
		return s
	}
}

// search finds where Levenberg–Marquardt should end: from the given
// starting values or, for parameters without one, the power of ten that
// fits best with the others held, and from starts around the parameters'
// scales (pr.start), the best end.
func (pr *problem) search() ([]float64, error) {
	n, k := pr.t.Rows, len(pr.Free)
	theta := make([]float64, k)
	given := make([]bool, k)
	for i, f := range pr.Free {
		theta[i] = 1
		if f.Init != nil {
			theta[i], given[i] = f.Init.Num, true
		}
	}
	pred := make([]float64, n)
	ssr := pr.ssr()
	for sweep := 0; sweep < 2; sweep++ {
		for i := range theta {
			if given[i] {
				continue
			}
			best, bestV := ssr(theta), theta[i]
			for e := -15; e <= 12; e++ {
				theta[i] = math.Pow(10, float64(e))
				if s := ssr(theta); s < best {
					best, bestV = s, theta[i]
				}
			}
			theta[i] = bestV
		}
	}
	if math.IsInf(ssr(theta), 1) {
		err := pr.predict(theta, pred)
		var set, tried []string
		for _, f := range pr.Free {
			if f.Init != nil {
				set = append(set, f.Name+"="+f.Init.String())
			} else {
				tried = append(tried, f.Name)
			}
		}
		switch {
		case len(set) == 0:
			return nil, fmt.Errorf("%s cannot be evaluated at any starting value tried; give starting values (--free a=1us,...): %v", pr.Name, err)
		case len(tried) == 0:
			return nil, fmt.Errorf("%s cannot be evaluated at the starting values given (%s); give others: %v", pr.Name, strings.Join(set, ", "), err)
		}
		return nil, fmt.Errorf("%s cannot be evaluated at the starting values given (%s) with any tried for %s; give others: %v", pr.Name, strings.Join(set, ", "), strings.Join(tried, ", "), err)
	}
	// Each parameter's scale is the smallest power of ten that, added to
	// it, moves the predictions by a thousandth of the measurements: the
	// size at which it matters, even where the scan left it far below.
	yScale := 0.0
	for r, y := range pr.y.Values {
		yScale += y * y * pr.w[r] * pr.w[r]
	}
	yScale = math.Sqrt(yScale / float64(n))
	base := make([]float64, n)
	_ = pr.predict(theta, base)
	pr.start = make([]float64, k)
	for i := range theta {
		pr.start[i] = math.Abs(theta[i])
		t := append([]float64(nil), theta...)
		for e := -15; e <= 12; e++ {
			step := math.Pow(10, float64(e))
			t[i] = theta[i] + step
			if pr.predict(t, pred) != nil {
				continue
			}
			moved := 0.0
			for r := range pred {
				d := (pred[r] - base[r]) * pr.w[r]
				moved += d * d
			}
			if math.Sqrt(moved/float64(n)) >= 1e-3*yScale {
				pr.start[i] = math.Max(pr.start[i], step)
				break
			}
		}
	}
	// Levenberg–Marquardt finds the nearest minimum; a model with a max
	// or an if has flat regions (a gap that no point's term reaches) and
	// minima of its own in each piece, so it also starts with each
	// parameter ten times larger and smaller, at its scale and ten times
	// that, and from points drawn (with a fixed seed) around the scales,
	// and keeps the best end.
	var starts [][]float64
	for i := range theta {
		for _, v := range []float64{theta[i] * 10, theta[i] / 10, pr.start[i], 10 * pr.start[i]} {
			start := append([]float64(nil), theta...)
			start[i] = v
			starts = append(starts, start)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range randomStarts {
		start := make([]float64, k)
		for i := range start {
			start[i] = math.Max(pr.start[i], math.Abs(theta[i])) * math.Pow(10, 3*rng.Float64()-1.5)
		}
		starts = append(starts, start)
	}
	best, bestSSR := pr.marquardt(theta, ssr)
	for _, start := range starts {
		if math.IsInf(ssr(start), 1) {
			continue
		}
		if t, s := pr.marquardt(start, ssr); s < bestSSR {
			best, bestSSR = t, s
		}
	}
	return best, nil
}

// marquardt runs Levenberg–Marquardt from theta with Marquardt's scaling
// and returns where it stopped and the sum of squares there.
func (pr *problem) marquardt(theta []float64, ssr func([]float64) float64) ([]float64, float64) {
	n, k := pr.t.Rows, len(theta)
	theta = append([]float64(nil), theta...)
	cur := ssr(theta)
	pred := make([]float64, n)
	r := make([]float64, n)
	lambda := 1e-3
	for iter := 0; iter < 500; iter++ {
		J, _, err := pr.jacobian(theta)
		if err != nil || pr.predict(theta, pred) != nil {
			break
		}
		for i := range r {
			r[i] = (pr.y.Values[i] - pred[i]) * pr.w[i]
		}
		// Each parameter is damped by its own column's norm; a floor
		// keeps one that has no effect here solvable.
		norms := make([]float64, k)
		top := 0.0
		for i, c := range J {
			norms[i] = math.Sqrt(sumSquares(c))
			top = math.Max(top, norms[i])
		}
		if top == 0 {
			break
		}
		improved := false
		for lambda < 1e16 {
			cols := make([][]float64, k)
			for i, c := range J {
				col := make([]float64, n+k)
				copy(col, c)
				col[n+i] = math.Sqrt(lambda) * math.Max(norms[i], 1e-8*top)
				cols[i] = col
			}
			q, err := factor(cols)
			if err != nil {
				lambda *= 10
				continue
			}
			step := q.solve(append(append([]float64(nil), r...), make([]float64, k)...))
			next := make([]float64, k)
			for i := range next {
				next[i] = theta[i] + step[i]
			}
			if s := ssr(next); s < cur {
				improved = cur-s > 1e-14*cur
				theta, cur = next, s
				lambda = math.Max(lambda/10, 1e-12)
				break
			}
			lambda *= 10
		}
		if !improved {
			break
		}
	}
	return theta, cur
}

// jacobian returns ∂f/∂θ_i at every point, one column per parameter, by
// central differences, and the step each column was found with.
func (pr *problem) jacobian(theta []float64) ([][]float64, []float64, error) {
	n := pr.t.Rows
	J := make([][]float64, len(theta))
	steps := make([]float64, len(theta))
	lo, hi := make([]float64, n), make([]float64, n)
	t := append([]float64(nil), theta...)
	for i := range theta {
		h := 1e-6 * math.Abs(theta[i])
		if h == 0 {
			h = 1e-12
		}
		J[i] = make([]float64, n)
		// A parameter far below its useful size (1e-15 s beside 20 us)
		// changes nothing within rounding at a relative step: the step
		// grows until the function notices, but stays a small part of the
		// parameter's starting size, so that a parameter in a flat region
		// (a gap below every max it is in) is seen to have no effect.
		limit := 1e-3 * math.Max(math.Abs(theta[i]), pr.start[i])
		for try := 0; try < 12; try++ {
			t[i] = theta[i] + h
			if err := pr.predict(t, hi); err != nil {
				return nil, nil, err
			}
			t[i] = theta[i] - h
			if err := pr.predict(t, lo); err != nil {
				return nil, nil, err
			}
			t[i] = theta[i]
			moved := false
			for r := range J[i] {
				J[i][r] = (hi[r] - lo[r]) / (2 * h) * pr.w[r]
				moved = moved || J[i][r] != 0
			}
			if moved || h*1e3 > limit {
				break
			}
			h *= 1e3
		}
		steps[i] = h
	}
	return J, steps, nil
}

// jacobianNoise is the error the rounding of the predictions leaves in the
// columns of J, found by central differences at steps, relative to each
// column's length and summed in quadrature (a bound on how far J's
// singular values may be from the true ones'): a prediction is taken to
// be within 8 units in the last place of pred, the predictions at the
// solution, on either side of a step.
func (pr *problem) jacobianNoise(J [][]float64, steps, pred []float64) float64 {
	total := 0.0
	for i, c := range J {
		e := 0.0
		for r := range c {
			d := 16 * 0x1p-52 * math.Abs(pred[r]) * pr.w[r] / (2 * steps[i])
			e += d * d
		}
		if norm := sumSquares(c); norm > 0 {
			total += e / norm
		}
	}
	return math.Sqrt(total)
}
