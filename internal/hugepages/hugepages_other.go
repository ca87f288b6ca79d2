//go:build !linux

package hugepages

// Make is make([]T, n, c): huge pages are asked for on Linux only.
func Make[T any](n, c int) []T { return make([]T, n, c) }

// Trim gives the pages of s's capacity past its length back on Linux
// only.
func Trim[T any](s []T) {}
