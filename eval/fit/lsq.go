package fit

import "math"

// qr is the Householder factorisation of a tall matrix whose columns have
// been scaled to unit length, so that one tolerance decides rank for
// columns as different as seconds and seconds per byte.
type qr struct {
	n, p  int
	a     [][]float64 // column-major: a[j] is column j, overwritten by the reflectors and R
	rdiag []float64
	scale []float64 // each column was divided by scale[j]
}

// rankTol is the smallest |R_jj| of a unit column that counts as
// independent of the columns before it: below it the column is, to
// rounding, a combination of them.
const rankTol = 1e-10

// dependentError says column Col is (to rounding) a combination of
// columns On, or carries nothing (On empty and Zero).
type dependentError struct {
	Col  int
	On   []int
	Zero bool
}

func (e *dependentError) Error() string { return "collinear columns" }

// factor computes the QR factorisation of the n×p matrix given by its
// columns (not modified). It fails with a *dependentError at the first
// column that adds no new direction.
func factor(cols [][]float64) (*qr, error) {
	p := len(cols)
	n := len(cols[0])
	f := &qr{n: n, p: p, a: make([][]float64, p), rdiag: make([]float64, p), scale: make([]float64, p)}
	for j, c := range cols {
		norm := 0.0
		for _, v := range c {
			norm = math.Hypot(norm, v)
		}
		if norm == 0 || math.IsInf(norm, 0) || math.IsNaN(norm) {
			return nil, &dependentError{Col: j, Zero: true}
		}
		f.scale[j] = norm
		f.a[j] = make([]float64, n)
		for i, v := range c {
			f.a[j][i] = v / norm
		}
	}
	for k := 0; k < p; k++ {
		col := f.a[k]
		norm := 0.0
		for i := k; i < n; i++ {
			norm = math.Hypot(norm, col[i])
		}
		if norm < rankTol {
			return nil, &dependentError{Col: k, On: f.combination(k)}
		}
		if col[k] > 0 {
			norm = -norm
		}
		// The reflector v = x - norm e_k, stored in place, with v_k
		// scaled so that H = I - v vᵀ / v_k / -norm.
		for i := k; i < n; i++ {
			col[i] /= -norm
		}
		col[k]++
		for j := k + 1; j < p; j++ {
			s := 0.0
			for i := k; i < n; i++ {
				s += col[i] * f.a[j][i]
			}
			s = -s / col[k]
			for i := k; i < n; i++ {
				f.a[j][i] += s * col[i]
			}
		}
		f.rdiag[k] = norm
	}
	return f, nil
}

// combination names the earlier columns that column k (dependent on them)
// is made of: those with a coefficient that matters when column k is
// solved against them.
func (f *qr) combination(k int) []int {
	// R z = (Qᵀ a_k)[:k], the coefficients of a_k on the columns before it.
	z := make([]float64, k)
	for i := 0; i < k; i++ {
		z[i] = f.a[k][i]
	}
	f.backSolve(z)
	var on []int
	for i, v := range z {
		if math.Abs(v) > 1e-6 {
			on = append(on, i)
		}
	}
	return on
}

// r returns R[i][j] for i < j (the upper triangle above the diagonal).
func (f *qr) r(i, j int) float64 {
	if i == j {
		return f.rdiag[i]
	}
	return f.a[j][i]
}

// backSolve solves R z = b in place for the leading len(b) rows.
func (f *qr) backSolve(b []float64) {
	for i := len(b) - 1; i >= 0; i-- {
		s := b[i]
		for j := i + 1; j < len(b); j++ {
			s -= f.r(i, j) * b[j]
		}
		b[i] = s / f.rdiag[i]
	}
}

// solve returns the least-squares solution of A x = y (in A's own,
// unscaled, units).
func (f *qr) solve(y []float64) []float64 {
	b := append([]float64(nil), y...)
	for k := 0; k < f.p; k++ {
		col := f.a[k]
		s := 0.0
		for i := k; i < f.n; i++ {
			s += col[i] * b[i]
		}
		s = -s / col[k]
		for i := k; i < f.n; i++ {
			b[i] += s * col[i]
		}
	}
	x := b[:f.p]
	f.backSolve(x)
	for j := range x {
		x[j] /= f.scale[j]
	}
	return append([]float64(nil), x...)
}

// covDiag returns the diagonal of (AᵀA)⁻¹ in A's own units:
// (RᵀR)⁻¹ = R⁻¹R⁻ᵀ, whose i-th diagonal entry is the squared length of
// row i of R⁻¹.
func (f *qr) covDiag() []float64 {
	p := f.p
	inv := make([][]float64, p) // inv[j] is column j of R⁻¹
	for j := 0; j < p; j++ {
		e := make([]float64, j+1)
		e[j] = 1
		f.backSolve(e)
		inv[j] = e
	}
	out := make([]float64, p)
	for i := 0; i < p; i++ {
		s := 0.0
		for j := i; j < p; j++ {
			s += inv[j][i] * inv[j][i]
		}
		out[i] = s / (f.scale[i] * f.scale[i])
	}
	return out
}

// singular returns the singular values of the matrix given by its columns
// (not modified), each column first scaled to unit length, and the right
// singular vectors (v[k] is the one of sigma[k]), by one-sided Jacobi
// rotations, which find the small singular values to high relative
// accuracy. The columns must be nonzero (factor refuses a zero column
// first).
func singular(cols [][]float64) (sigma []float64, v [][]float64) {
	p := len(cols)
	u := make([][]float64, p)
	v = make([][]float64, p)
	for j, c := range cols {
		norm := math.Sqrt(sumSquares(c))
		u[j] = make([]float64, len(c))
		for i, x := range c {
			u[j][i] = x / norm
		}
		v[j] = make([]float64, p)
		v[j][j] = 1
	}
	for sweep := 0; sweep < 60; sweep++ {
		rotated := false
		for i := 0; i < p; i++ {
			for j := i + 1; j < p; j++ {
				alpha, beta, gamma := sumSquares(u[i]), sumSquares(u[j]), 0.0
				for r := range u[i] {
					gamma += u[i][r] * u[j][r]
				}
				if gamma == 0 || math.Abs(gamma) <= 1e-15*math.Sqrt(alpha*beta) {
					continue
				}
				rotated = true
				zeta := (beta - alpha) / (2 * gamma)
				t := math.Copysign(1, zeta) / (math.Abs(zeta) + math.Sqrt(1+zeta*zeta))
				c := 1 / math.Sqrt(1+t*t)
				s := c * t
				for _, m := range [][][]float64{u, v} {
					a, b := m[i], m[j]
					for r := range a {
						a[r], b[r] = c*a[r]-s*b[r], s*a[r]+c*b[r]
					}
				}
			}
		}
		if !rotated {
			break
		}
	}
	sigma = make([]float64, p)
	for j := range u {
		sigma[j] = math.Sqrt(sumSquares(u[j]))
	}
	return sigma, v
}
