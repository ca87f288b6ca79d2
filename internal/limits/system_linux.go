//go:build linux

package limits

import (
	"math"
	"os"
	"syscall"
)

// readSystem reads physical memory, the address-space limit and what is
// mapped of it, and the cgroup memory limit.
func readSystem() Reading {
	var r Reading
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		r.Physical = readMeminfo(string(b))
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err == nil && rl.Cur < math.MaxInt64 {
		r.AddressSpace = int64(rl.Cur)
		if b, err := os.ReadFile("/proc/self/status"); err == nil {
			r.Mapped = readVmSize(string(b))
		}
	}
	r.Cgroup, r.CgroupFile = readCgroup(os.DirFS("/"))
	return r
}
