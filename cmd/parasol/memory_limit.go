package main

import "runtime/debug"

// memoryLimit is a --max-memory value. The kernel's own estimates refuse
// what would exceed it, but they count the data structures, not the
// garbage the collector has yet to free: a run at a 1 GB limit was
// measured at 1.21 GB resident. So the limit is also the Go runtime's
// soft memory limit, under which the collector works harder as the heap
// nears it, rather than letting it grow to twice the live data.
type memoryLimit struct {
	quantityFlag
}

// memoryFlag is a --max-memory value: a size, 0 (the default) until set.
func memoryFlag() memoryLimit { return memoryLimit{sizeFlag(0, 1)} }

func (m *memoryLimit) Set(s string) error {
	if err := m.quantityFlag.Set(s); err != nil {
		return err
	}
	debug.SetMemoryLimit(m.bytes())
	return nil
}

// refused lets flagValueError word a refused size as for any quantity.
func (m *memoryLimit) refused() (string, error) { return m.bad, m.err }
