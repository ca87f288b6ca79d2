//go:build !linux

package eval

// makeHuge is make: huge pages are asked for on Linux only.
func makeHuge[T any](n, c int) []T { return make([]T, n, c) }
