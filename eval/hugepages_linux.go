package eval

import (
	"syscall"
	"unsafe"
)

// hugePageMin is the smallest array worth backing by huge pages.
const hugePageMin = 4 << 20

// makeHuge returns a slice of length n and capacity c whose storage the
// kernel is asked to back by 2 MiB pages. The analysis of a program of
// many ranks reads its operations at scattered places (each rank's next
// one, in time order); with 4 KiB pages nearly every such read also
// misses the address translation cache. It is a hint: where transparent
// huge pages are off, nothing changes. (runtime's makeHuge does the same
// for the simulator's network.)
func makeHuge[T any](n, c int) []T {
	s := make([]T, n, c)
	var zero T
	size := uintptr(c) * unsafe.Sizeof(zero)
	if size < hugePageMin {
		return s
	}
	const huge = 2 << 20
	base := unsafe.Pointer(unsafe.SliceData(s))
	start := uintptr(base)
	lo := (start + huge - 1) &^ (huge - 1)
	hi := (start + size) &^ (huge - 1)
	if hi > lo {
		_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(base, lo-start)), hi-lo), 14) // MADV_HUGEPAGE
	}
	return s
}
