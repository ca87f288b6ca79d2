//go:build !linux

package runtime

// makeHuge is make: huge pages are asked for on Linux only.
func makeHuge[T any](n int) []T { return make([]T, n) }
