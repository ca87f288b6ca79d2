package runtime

// prefetch asks the processor to bring the cache line at addr in without
// waiting for it: unlike a load, it holds nothing up until it arrives, and
// an address that is no longer valid does no harm.
//
//go:noescape
func prefetch(addr uintptr)

// prefetchSpan is prefetch of every line of the n bytes from addr.
//
//go:noescape
func prefetchSpan(addr, n uintptr)

// prefetch3L2 is prefetch3 into the second-level cache only.
//
//go:noescape
func prefetch3L2(a, b, c uintptr)
