//go:build !unix

package cputime

// Seconds is not measured here: it is 0, and benchmarks report wall-clock
// rates only.
func Seconds() float64 { return 0 }
