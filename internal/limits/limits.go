// Package limits is Parasol's memory budget: every allocation that grows
// with the input (nodes, links, lanes, buffers, runs, events, histogram
// bins, file contents) is estimated and checked against one limit before it
// is made, so that a hostile or mistaken input gets an error naming the
// figure and the limit instead of exhausting the machine.
package limits

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
)

// EnvVar overrides the default memory limit, e.g. PARASOL_MAX_MEMORY=2GB.
const EnvVar = "PARASOL_MAX_MEMORY"

// fallback is the limit when the machine's memory cannot be read.
const fallback = 4 << 30

// DefaultFraction of the machine's physical memory is the default limit.
const DefaultFraction = 0.25

// MaxFileSize bounds one input file (a machine file or an import): the
// parsed form takes tens of times the text's size.
const MaxFileSize = 256 << 20

var (
	defaultOnce  sync.Once
	defaultLimit int64
)

// Default is the memory limit when none is given: $PARASOL_MAX_MEMORY if
// set and valid, else a quarter of the machine's physical memory.
func Default() int64 {
	defaultOnce.Do(func() {
		if s := os.Getenv(EnvVar); s != "" {
			if n, err := ParseSize(s); err == nil {
				defaultLimit = n
				return
			}
		}
		defaultLimit = fallback
		if total := physicalMemory(); total > 0 {
			defaultLimit = int64(float64(total) * DefaultFraction)
		}
	})
	return defaultLimit
}

// Or returns max, or Default() when max is zero or negative.
func Or(max int64) int64 {
	if max > 0 {
		return max
	}
	return Default()
}

func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			fields := strings.Fields(rest)
			if len(fields) >= 1 {
				kb, err := strconv.ParseInt(fields[0], 10, 64)
				if err == nil {
					return kb << 10
				}
			}
		}
	}
	return 0
}

// TooLarge is the error for an allocation beyond the limit.
type TooLarge struct {
	What        string // what would be allocated, e.g. "hypercube(24)"
	Need, Limit int64  // bytes
}

func (e *TooLarge) Error() string {
	return fmt.Sprintf("%s needs about %s; the limit is %s, set --max-memory to raise it",
		e.What, FormatSize(e.Need), FormatSize(e.Limit))
}

// Check returns a *TooLarge error when need bytes exceed the limit max
// (Default() when max ≤ 0).
func Check(what string, need, max int64) error {
	max = Or(max)
	if need > max || need < 0 {
		if need < 0 { // overflowed while estimating
			need = math.MaxInt64
		}
		return &TooLarge{What: what, Need: need, Limit: max}
	}
	return nil
}

// Mul multiplies non-negative sizes, saturating at MaxInt64 instead of
// overflowing, for estimates such as nodes × degree × bytes.
func Mul(factors ...int64) int64 {
	p := int64(1)
	for _, f := range factors {
		if f <= 0 {
			return 0
		}
		if p > math.MaxInt64/f {
			return math.MaxInt64
		}
		p *= f
	}
	return p
}

// Add sums non-negative sizes, saturating at MaxInt64 instead of
// overflowing, for estimates built of several parts.
func Add(terms ...int64) int64 {
	s := int64(0)
	for _, t := range terms {
		if s > math.MaxInt64-t {
			return math.MaxInt64
		}
		s += t
	}
	return s
}

// FormatSize prints bytes in decimal units as the error messages use them:
// "11 GB", "512 MB", "3.5 KB".
func FormatSize(n int64) string {
	if n == math.MaxInt64 {
		return "more than 9 EB"
	}
	units := []string{"B", "KB", "MB", "GB", "TB", "PB", "EB"}
	f := float64(n)
	i := 0
	for f >= 1000 && i < len(units)-1 {
		f /= 1000
		i++
	}
	if f >= 10 || i == 0 {
		return fmt.Sprintf("%.0f %s", f, units[i])
	}
	return fmt.Sprintf("%.1f %s", f, units[i])
}

var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"B", 1},
}

// ParseSize reads a memory size such as "4GB", "512MiB", "2.5G" or a plain
// byte count.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || f <= 0 || f*float64(mult) >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is not a memory size (e.g. 512MB, 4GB, 2GiB)", s)
	}
	return int64(f * float64(mult)), nil
}
