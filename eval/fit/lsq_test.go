package fit

import (
	"math"
	"testing"
)

// Two unit columns at an angle θ have singular values sqrt(1 ± cos θ)
// (the eigenvalues of their Gram matrix [[1, cos θ], [cos θ, 1]]), with
// right singular vectors (1, ±1)/√2; singular finds the small one to high
// relative accuracy even when θ is 1e-7 (cos θ rounds to 1 there, so the
// value is sqrt(2) sin(θ/2), θ/√2 to first order).
func TestSingularValuesOfTwoColumnsAtAnAngle(t *testing.T) {
	for _, theta := range []float64{1, 1e-4, 1e-7} {
		// Scaled, to show each column is taken at unit length.
		cols := [][]float64{{3, 0, 0}, {7 * math.Cos(theta), 7 * math.Sin(theta), 0}}
		sigma, v := singular(cols)
		lo, hi := 0, 1
		if sigma[1] < sigma[0] {
			lo, hi = 1, 0
		}
		wantLo, wantHi := math.Sqrt2*math.Sin(theta/2), math.Sqrt2*math.Cos(theta/2)
		if math.Abs(sigma[lo]-wantLo) > 1e-9*wantLo || math.Abs(sigma[hi]-wantHi) > 1e-12 {
			t.Errorf("θ = %g: singular values %v, want %g and %g", theta, sigma, wantLo, wantHi)
		}
		// The small one's vector is (1, -1)/√2 up to sign.
		if x, y := v[lo][0], v[lo][1]; math.Abs(math.Abs(x)-1/math.Sqrt2) > 1e-9 || math.Abs(x+y) > 1e-9 {
			t.Errorf("θ = %g: the small value's vector is (%g, %g), want ±(1, -1)/√2", theta, x, y)
		}
	}
}
