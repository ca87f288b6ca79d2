//go:build !amd64

package runtime

// prefetch is a hint only; without the instruction it does nothing.
func prefetch(addr uintptr) {}

func prefetchSpan(addr, n uintptr) {}

func prefetch3L2(a, b, c uintptr) {}
