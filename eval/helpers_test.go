package eval

import "math"

// near reports whether a and b agree to within rel of the larger, or both
// are within 1e-18 of 0.
func near(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))+1e-18
}
