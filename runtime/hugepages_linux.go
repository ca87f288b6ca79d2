package runtime

import (
	"syscall"
	"unsafe"
)

// hugePageMin is the smallest array worth backing by huge pages.
const hugePageMin = 4 << 20

// makeHuge returns a slice of n zero values whose storage the kernel is
// asked to back by 2 MiB pages. A large network's state is read at random
// places; with 4 KiB pages nearly every access also misses the processor's
// address translation cache, and the page-table walk misses the data cache
// too. It is a hint: where transparent huge pages are off, nothing changes.
func makeHuge[T any](n int) []T {
	s := make([]T, n)
	var zero T
	size := uintptr(n) * unsafe.Sizeof(zero)
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
