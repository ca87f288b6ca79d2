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

// Trim gives the system back the pages of s's capacity past its length,
// which a huge page holding its last elements made resident with them
// (up to 2 MiB of an array made larger than it was filled: a schedule's
// operations, sized from its file's length before they are read). They
// read as zeros again when touched, as they were: s's elements must hold
// no pointers, and none past its length may have been written.
func Trim[T any](s []T) {
	var zero T
	size := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if size < minBytes {
		return
	}
	const page = 4 << 10
	start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo := (start + uintptr(len(s))*unsafe.Sizeof(zero) + page - 1) &^ (page - 1)
	hi := (start + size) &^ (page - 1)
	if hi > lo {
		_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), lo-start)), hi-lo), syscall.MADV_DONTNEED)
	}
}
