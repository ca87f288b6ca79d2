package hugepages

import (
	"syscall"
	"unsafe"
)

// minBytes is the smallest array worth asking huge pages for.
const minBytes = 4 << 20

// Make is make([]T, n, c), with huge pages asked for its storage (before
// its first touch, so that the kernel can give them when it faults in).
func Make[T any](n, c int) []T {
	s := make([]T, n, c)
	var zero T
	size := uintptr(c) * unsafe.Sizeof(zero)
	if size < minBytes {
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
