package programs

import (
	"math"
	"testing"
)

// renderCounts are the render-task counts of seed 003 Figure 4.6's sweep.
var renderCounts = []int{1, 2, 4, 8, 16, 32, 64}

// The rendering program's time against P follows a + b/P (seed 003
// Figure 4.6), with a and b those §4.3 derives from Table 4.2 (N_s =
// 2000): a = Process + List 0.85 s plus a' = 0.036 s of through-routing
// at the graphics processor's neighbours, b = Paint + Sort 81.7 s plus
// b' = 0.077 s of send overhead; and 64 render tasks take about 2.14 s,
// the seed's measured figure (§4.3).
func TestRenderScalesAsAPlusBOverP(t *testing.T) {
	times := make([]float64, len(renderCounts))
	for i, P := range renderCounts {
		var err error
		if times[i], err = RenderTime(P, 2000); err != nil {
			t.Fatal(err)
		}
	}
	f, err := FitInverse(renderCounts, times)
	if err != nil {
		t.Fatal(err)
	}
	const (
		seedA  = 0.85 + 0.036 // s, §4.3: Table 4.2's Process + List, plus a'
		seedB  = 81.7 + 0.077 // s, §4.3: Table 4.2's Paint + Sort, plus b'
		seed64 = 2.14         // s, §4.3: N = 2000 on 64 processors
	)
	if f.MaxResidual > 0.02 {
		t.Errorf("times %v are up to %.2g%% from a + b/P: not the seed's scaling", times, 100*f.MaxResidual)
	}
	if math.Abs(f.A-seedA) > 0.05*seedA || math.Abs(f.B-seedB) > 0.02*seedB {
		t.Errorf("fit a = %.4g s, b = %.4g s; want §4.3's a ≈ %.4g s (±5%%), b ≈ %.4g s (±2%%)", f.A, f.B, seedA, seedB)
	}
	if got := times[len(times)-1]; math.Abs(got-seed64) > 0.10*seed64 {
		t.Errorf("64 renders: %.4g s, want the seed's %.4g s within 10%%", got, seed64)
	}
}
