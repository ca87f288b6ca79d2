//go:build !unix

package parser

// cpuSeconds is not measured here: benchmarks report wall-clock rates only.
func cpuSeconds() float64 { return 0 }
