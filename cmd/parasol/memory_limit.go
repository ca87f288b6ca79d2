package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/parasol-lang/parasol/internal/limits"
)

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

// Set takes a size, refused when it is more than the process may
// allocate (its address-space or cgroup limit, limits.Allowed).
func (m *memoryLimit) Set(s string) error {
	if err := m.quantityFlag.Set(s); err != nil {
		return err
	}
	if err := limits.Allowed(m.bytes()); err != nil {
		m.err, m.bad, m.set = err, s, false
		return err
	}
	debug.SetMemoryLimit(m.bytes())
	return nil
}

// refused lets flagValueError word a refused size as for any quantity.
func (m *memoryLimit) refused() (string, error) { return m.bad, m.err }

// memoryEnv validates $PARASOL_MAX_MEMORY as a --max-memory value is
// validated (the same units, bounds and messages, and the same check
// against what the process may allocate) and makes it the default limit;
// the error names the variable and its value.
func memoryEnv() error {
	s := os.Getenv(limits.EnvVar)
	if s == "" {
		limits.SetDefault(0)
		return nil
	}
	q := sizeFlag(0, 1)
	err := q.Set(s)
	if err == nil {
		err = limits.Allowed(q.bytes())
	}
	if err != nil {
		return fmt.Errorf("%s=%s: %v", limits.EnvVar, s, err)
	}
	limits.SetDefault(q.bytes())
	return nil
}
