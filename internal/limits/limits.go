// Package limits is Parasol's memory budget: every allocation that grows
// with the input (nodes, links, lanes, buffers, runs, events, histogram
// bins, file contents) is estimated and checked against one limit before it
// is made, so that a hostile or mistaken input gets an error naming the
// figure and the limit instead of exhausting the machine.
package limits

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	pathpkg "path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	defaultEnv   bool         // defaultLimit is $PARASOL_MAX_MEMORY's
	setDefault   atomic.Int64 // > 0: SetDefault's value
	systemOnce   sync.Once
	systemRead   Reading
)

// Default is the memory limit when none is given: the value of
// SetDefault if one was set, else $PARASOL_MAX_MEMORY if set, valid and
// within what the process may allocate (Env), else Auto's.
func Default() int64 {
	if n := setDefault.Load(); n > 0 {
		return n
	}
	defaultOnce.Do(func() {
		if n, err := Env(); err == nil && n > 0 {
			defaultLimit, defaultEnv = n, true
			return
		}
		defaultLimit = system().Auto()
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

// SetDefault makes n bytes the limit Default returns, for a program that
// reads and validates $PARASOL_MAX_MEMORY itself (the command line, with
// the parser of its --max-memory flag). n ≤ 0 restores the default.
func SetDefault(n int64) { setDefault.Store(max(n, 0)) }

// Env reads $PARASOL_MAX_MEMORY: 0 and no error when it is unset or
// empty, else
// its size (ParseSize), or an error naming the variable and its value
// when it is not a size or is more than the process may allocate.
func Env() (int64, error) {
	s := os.Getenv(EnvVar)
	if s == "" {
		return 0, nil
	}
	n, err := ParseSize(s)
	if err == nil {
		err = Allowed(n)
	}
	if err != nil {
		return 0, fmt.Errorf("%s=%s: %w", EnvVar, s, err)
	}
	return n, nil
}

// Allowed returns an error saying why when a limit of n bytes is more
// than the process may allocate: more than its address-space limit
// (ulimit -v, less what is already mapped) or its cgroup's memory limit.
func Allowed(n int64) error { return system().Allowed(n) }

// Auto is the default limit from these readings: the smallest of
// DefaultFraction of physical memory, the room the address-space limit
// leaves and the cgroup memory limit, of those known (fallback when none
// is).
func (r Reading) Auto() int64 {
	lim := int64(0)
	if r.Physical > 0 {
		lim = int64(float64(r.Physical) * DefaultFraction)
	}
	if c, _ := r.ceiling(); c > 0 && (lim == 0 || c < lim) {
		lim = c
	}
	if lim <= 0 {
		return fallback
	}
	return lim
}

// Allowed returns an error naming the reason when n bytes are more than
// the process may allocate under these readings.
func (r Reading) Allowed(n int64) error {
	if c, why := r.ceiling(); c > 0 && n > c {
		return fmt.Errorf("more than this process may allocate: %s", why)
	}
	return nil
}

// ceiling is the most the process may allocate, the smaller of the room
// under the address-space limit and the cgroup limit, and why; 0 when
// neither is set.
func (r Reading) ceiling() (int64, string) {
	c, why, _ := r.ceilingOf()
	return c, why
}

// ceilingOf is ceiling, and whether the cgroup's limit is the smaller.
func (r Reading) ceilingOf() (c int64, why string, cgroup bool) {
	if r.AddressSpace > 0 {
		c = max(r.AddressSpace-r.Mapped, 1)
		why = fmt.Sprintf("its address-space limit (ulimit -v) is %s, %s of it already mapped", FormatSize(r.AddressSpace), FormatSize(r.Mapped))
	}
	if r.Cgroup > 0 && (c == 0 || r.Cgroup < c) {
		c, cgroup = r.Cgroup, true
		why = fmt.Sprintf("its cgroup's memory limit (%s) is %s", r.CgroupFile, FormatSize(r.Cgroup))
	}
	return c, why, cgroup
}

// autoSource says where Auto's limit comes from and what raises it, to
// follow "the limit is 3.2 GB, " in an error.
func (r Reading) autoSource() string {
	quarter := int64(0)
	if r.Physical > 0 {
		quarter = int64(float64(r.Physical) * DefaultFraction)
	}
	c, _, cgroup := r.ceilingOf()
	switch {
	case c > 0 && (quarter == 0 || c < quarter) && cgroup:
		return fmt.Sprintf("the cgroup's memory limit (%s); give the container or job more memory to allow more (--max-memory cannot pass it)", r.CgroupFile)
	case c > 0 && (quarter == 0 || c < quarter):
		return fmt.Sprintf("what the address-space limit leaves (ulimit -v is %s, %s of it already mapped); raise ulimit -v to allow more (--max-memory cannot pass it)", FormatSize(r.AddressSpace), FormatSize(r.Mapped))
	case quarter > 0 && c > 0:
		return fmt.Sprintf("a quarter of physical memory (%s); set --max-memory to raise it, up to %s (what this process may allocate)", FormatSize(r.Physical), FormatSize(c))
	case quarter > 0:
		return fmt.Sprintf("a quarter of physical memory (%s); set --max-memory to raise it", FormatSize(r.Physical))
	}
	return "the default where physical memory cannot be read; set --max-memory to raise it"
}

// source says where a limit of n bytes comes from and what raises it, to
// follow "the limit is 3.2 GB, " in an error: a limit given (--max-memory)
// is raised there; the default's source is named ($PARASOL_MAX_MEMORY, a
// quarter of physical memory, ulimit -v or the cgroup's limit).
func source(n int64) string {
	if n != Default() {
		return "set --max-memory to raise it"
	}
	if setDefault.Load() > 0 || defaultEnv {
		return fmt.Sprintf("from $%s; set it or --max-memory higher to raise it", EnvVar)
	}
	return system().autoSource()
}

// A Reading is what the system says about the memory the process may
// use; 0 means unknown or unlimited.
type Reading struct {
	Physical     int64  // bytes of physical memory (/proc/meminfo MemTotal)
	AddressSpace int64  // RLIMIT_AS (ulimit -v)
	Mapped       int64  // the process's address space in use (VmSize), which counts against AddressSpace
	Cgroup       int64  // the cgroup's memory limit (v2 memory.max, v1 memory.limit_in_bytes), the smallest on the path to the root
	CgroupFile   string // the file Cgroup was read from
}

// system reads the readings once (readSystem is per OS: on Linux /proc,
// getrlimit and the cgroup files; elsewhere nothing, and the default is
// the fallback as before).
func system() Reading {
	systemOnce.Do(func() { systemRead = readSystem() })
	return systemRead
}

// readMeminfo returns MemTotal from a /proc/meminfo text, 0 if absent.
func readMeminfo(text string) int64 {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			if fields := strings.Fields(rest); len(fields) >= 1 {
				if kb, err := strconv.ParseInt(fields[0], 10, 64); err == nil && kb > 0 && kb < math.MaxInt64>>10 {
					return kb << 10
				}
			}
		}
	}
	return 0
}

// readVmSize returns VmSize from a /proc/self/status text, 0 if absent.
func readVmSize(text string) int64 {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			if fields := strings.Fields(rest); len(fields) >= 1 {
				if kb, err := strconv.ParseInt(fields[0], 10, 64); err == nil && kb > 0 && kb < math.MaxInt64>>10 {
					return kb << 10
				}
			}
		}
	}
	return 0
}

// unlimited is the smallest cgroup figure read as "no limit": v1 writes
// its "unlimited" as the largest page-aligned int64.
const unlimited = 1 << 62

// readCgroup returns the smallest memory limit of the process's cgroups
// and the file it came from, reading in fsys (the root of the file
// system): /proc/self/cgroup names the cgroup of each hierarchy; for
// cgroup v2 ("0::/path") memory.max of the path and each ancestor under
// /sys/fs/cgroup, for v1 (a "memory" controller line) memory.limit_in_bytes
// under /sys/fs/cgroup/memory. Where the path is not found (a container
// sees its own cgroup as the root) the root's file is read.
func readCgroup(fsys fs.FS) (int64, string) {
	data, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return 0, ""
	}
	best, file := int64(0), ""
	try := func(name string) bool {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return false
		}
		t := strings.TrimSpace(string(b))
		if n, err := strconv.ParseInt(t, 10, 64); err == nil && n > 0 && n < unlimited && (best == 0 || n < best) {
			best, file = n, "/"+name
		}
		return true
	}
	walk := func(root, path, leaf string) {
		found := false
		for p := strings.Trim(path, "/"); p != "" && p != "."; p = pathpkg.Dir(p) {
			found = try(root+"/"+p+"/"+leaf) || found
		}
		if !found {
			try(root + "/" + leaf)
		}
	}
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			walk("sys/fs/cgroup", parts[2], "memory.max")
		case slices.Contains(strings.Split(parts[1], ","), "memory"):
			walk("sys/fs/cgroup/memory", parts[2], "memory.limit_in_bytes")
		}
	}
	return best, file
}

// TooLarge is the error for an allocation beyond the limit.
type TooLarge struct {
	What        string // what would be allocated, e.g. "hypercube(24)"
	Need, Limit int64  // bytes
}

func (e *TooLarge) Error() string {
	return fmt.Sprintf("%s needs about %s; the limit is %s, %s",
		e.What, FormatSize(e.Need), FormatSize(e.Limit), source(e.Limit))
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
