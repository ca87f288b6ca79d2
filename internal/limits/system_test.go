package limits

import (
	"strings"
	"testing"
	"testing/fstest"
)

// The default is the smallest of a quarter of physical memory, the room
// under the address-space limit and the cgroup limit (issue 26); the
// readings are injected, so the host's own limits do not matter.
func TestAutoIsTheSmallestLimit(t *testing.T) {
	const G = 1 << 30
	for _, c := range []struct {
		name string
		r    Reading
		want int64
	}{
		{"nothing known", Reading{}, fallback},
		{"physical only", Reading{Physical: 16 * G}, 4 * G},
		{"address space below a quarter", Reading{Physical: 64 * G, AddressSpace: 4 * G, Mapped: G}, 3 * G},
		{"address space above a quarter", Reading{Physical: 16 * G, AddressSpace: 64 * G, Mapped: G}, 4 * G},
		{"cgroup below a quarter", Reading{Physical: 64 * G, Cgroup: 2 * G}, 2 * G},
		{"cgroup below the address space", Reading{Physical: 64 * G, AddressSpace: 8 * G, Cgroup: 2 * G}, 2 * G},
		{"address space below the cgroup", Reading{Physical: 64 * G, AddressSpace: 3 * G, Mapped: G, Cgroup: 8 * G}, 2 * G},
		{"cgroup without physical memory", Reading{Cgroup: 512 << 20}, 512 << 20},
		{"address space all mapped", Reading{Physical: 16 * G, AddressSpace: G, Mapped: 2 * G}, 1},
	} {
		if got := c.r.Auto(); got != c.want {
			t.Errorf("%s: Auto() = %d, want %d", c.name, got, c.want)
		}
	}
}

// An error at the default limit says where the limit came from and what
// raises it: --max-memory raises a quarter of physical memory (up to what
// the process may allocate), not the address-space or cgroup limit
// (issue 26: every error said "set --max-memory to raise it").
func TestAutoSourceSaysWhereTheLimitComesFrom(t *testing.T) {
	const G = 1 << 30
	for _, c := range []struct {
		name string
		r    Reading
		want string
	}{
		{"nothing known", Reading{}, "the default where physical memory cannot be read; set --max-memory to raise it"},
		{"physical only", Reading{Physical: 16 * G}, "a quarter of physical memory (17 GB); set --max-memory to raise it"},
		{"address space above a quarter", Reading{Physical: 16 * G, AddressSpace: 64 * G, Mapped: G},
			"a quarter of physical memory (17 GB); set --max-memory to raise it, up to 68 GB (what this process may allocate)"},
		{"address space below a quarter", Reading{Physical: 64 * G, AddressSpace: 4 * G, Mapped: G},
			"what the address-space limit leaves (ulimit -v is 4.3 GB, 1.1 GB of it already mapped); raise ulimit -v to allow more (--max-memory cannot pass it)"},
		{"cgroup below a quarter", Reading{Physical: 64 * G, Cgroup: 2 * G, CgroupFile: "/sys/fs/cgroup/job/memory.max"},
			"the cgroup's memory limit (/sys/fs/cgroup/job/memory.max); give the container or job more memory to allow more (--max-memory cannot pass it)"},
		{"cgroup below the address space", Reading{Physical: 64 * G, AddressSpace: 8 * G, Cgroup: 2 * G, CgroupFile: "/sys/fs/cgroup/memory/memory.limit_in_bytes"},
			"the cgroup's memory limit (/sys/fs/cgroup/memory/memory.limit_in_bytes); give the container or job more memory to allow more (--max-memory cannot pass it)"},
		{"address space below the cgroup", Reading{Physical: 64 * G, AddressSpace: 3 * G, Mapped: G, Cgroup: 8 * G, CgroupFile: "/sys/fs/cgroup/memory.max"},
			"what the address-space limit leaves (ulimit -v is 3.2 GB, 1.1 GB of it already mapped); raise ulimit -v to allow more (--max-memory cannot pass it)"},
		{"cgroup without physical memory", Reading{Cgroup: 512 << 20, CgroupFile: "/sys/fs/cgroup/memory.max"},
			"the cgroup's memory limit (/sys/fs/cgroup/memory.max); give the container or job more memory to allow more (--max-memory cannot pass it)"},
	} {
		if got := c.r.autoSource(); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// A limit given is raised with --max-memory; the default's error names
// $PARASOL_MAX_MEMORY when it came from there.
func TestTooLargeNamesTheLimitsSource(t *testing.T) {
	t.Cleanup(func() { SetDefault(0) })
	SetDefault(32e6)
	want := "x needs about 1.0 GB; the limit is 32 MB, from $PARASOL_MAX_MEMORY; set it or --max-memory higher to raise it"
	if err := Check("x", 1e9, 0); err == nil || err.Error() != want {
		t.Errorf("the default from the variable: got %v, want %q", err, want)
	}
	want = "x needs about 1.0 GB; the limit is 64 MB, set --max-memory to raise it"
	if err := Check("x", 1e9, 64e6); err == nil || err.Error() != want {
		t.Errorf("a limit given: got %v, want %q", err, want)
	}
}

// A limit above what the process may allocate is refused with the reason.
func TestAllowedNamesTheReason(t *testing.T) {
	const G = 1 << 30
	r := Reading{Physical: 64 * G, AddressSpace: 4096000 << 10, Mapped: 1 << 30}
	if err := r.Allowed(3e9); err != nil {
		t.Errorf("3 GB under a 4.2 GB address space with 1 GiB mapped: %v", err)
	}
	err := r.Allowed(100e9)
	want := "more than this process may allocate: its address-space limit (ulimit -v) is 4.2 GB, 1.1 GB of it already mapped"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	r = Reading{Physical: 64 * G, AddressSpace: 64 * G, Cgroup: 2e9, CgroupFile: "/sys/fs/cgroup/a/memory.max"}
	err = r.Allowed(3e9)
	want = "more than this process may allocate: its cgroup's memory limit (/sys/fs/cgroup/a/memory.max) is 2.0 GB"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if err := (Reading{Physical: 4 * G}).Allowed(100 * G); err != nil {
		t.Errorf("no address-space or cgroup limit: %v", err)
	}
}

func TestReadCgroup(t *testing.T) {
	for _, c := range []struct {
		name     string
		files    map[string]string
		want     int64
		wantFile string
	}{
		{"v2, limit on the process's group", map[string]string{
			"proc/self/cgroup":                        "0::/user.slice/job\n",
			"sys/fs/cgroup/user.slice/job/memory.max": "2147483648\n",
			"sys/fs/cgroup/user.slice/memory.max":     "max\n",
		}, 2 << 30, "/sys/fs/cgroup/user.slice/job/memory.max"},
		{"v2, the smaller limit of an ancestor", map[string]string{
			"proc/self/cgroup":             "0::/a/b\n",
			"sys/fs/cgroup/a/b/memory.max": "8000000000\n",
			"sys/fs/cgroup/a/memory.max":   "1000000000\n",
		}, 1e9, "/sys/fs/cgroup/a/memory.max"},
		{"v2, unlimited", map[string]string{
			"proc/self/cgroup":           "0::/a\n",
			"sys/fs/cgroup/a/memory.max": "max\n",
		}, 0, ""},
		{"v2 in a container: the path is not mounted, the root is its group", map[string]string{
			"proc/self/cgroup":         "0::/kubepods/pod1/c1\n",
			"sys/fs/cgroup/memory.max": "536870912\n",
		}, 512 << 20, "/sys/fs/cgroup/memory.max"},
		{"v1", map[string]string{
			"proc/self/cgroup": "9:name=systemd:/\n4:memory:/process_api/x\n0::/\n",
			"sys/fs/cgroup/memory/process_api/x/memory.limit_in_bytes": "3000000000\n",
		}, 3e9, "/sys/fs/cgroup/memory/process_api/x/memory.limit_in_bytes"},
		{"v1 unlimited (the largest page-aligned int64), in a container", map[string]string{
			"proc/self/cgroup":                           "4:memory:/process_api/x\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
		}, 0, ""},
		{"v1 with controllers joined", map[string]string{
			"proc/self/cgroup": "5:cpu,memory:/g\n",
			"sys/fs/cgroup/memory/g/memory.limit_in_bytes": "4096\n",
		}, 4096, "/sys/fs/cgroup/memory/g/memory.limit_in_bytes"},
		{"no cgroup file", map[string]string{}, 0, ""},
	} {
		fsys := fstest.MapFS{}
		for name, text := range c.files {
			fsys[name] = &fstest.MapFile{Data: []byte(text)}
		}
		got, file := readCgroup(fsys)
		if got != c.want || file != c.wantFile {
			t.Errorf("%s: readCgroup = %d, %q; want %d, %q", c.name, got, file, c.want, c.wantFile)
		}
	}
}

func TestReadProcFiles(t *testing.T) {
	if got := readMeminfo("MemFree: 5 kB\nMemTotal:       24576000 kB\n"); got != 24576000<<10 {
		t.Errorf("readMeminfo = %d", got)
	}
	if got := readVmSize("Name:\tparasol\nVmPeak:\t 9999 kB\nVmSize:\t  812345 kB\n"); got != 812345<<10 {
		t.Errorf("readVmSize = %d", got)
	}
	if readMeminfo("nothing") != 0 || readVmSize("VmSize: lots kB") != 0 {
		t.Error("a missing figure is not 0")
	}
}

// $PARASOL_MAX_MEMORY that is not a size is an error naming the variable
// and the value, not ignored (issue 26).
func TestEnv(t *testing.T) {
	for _, bad := range []string{"garbage", "0", "-5GB", "1e30B", "2gb"} {
		t.Setenv(EnvVar, bad)
		_, err := Env()
		if err == nil || !strings.HasPrefix(err.Error(), EnvVar+"="+bad+": ") {
			t.Errorf("%s=%q: got %v, want an error naming it", EnvVar, bad, err)
		}
	}
	t.Setenv(EnvVar, "2GB")
	if n, err := Env(); n != 2e9 || err != nil {
		t.Errorf("2GB: %d, %v", n, err)
	}
}

func TestSetDefault(t *testing.T) {
	t.Cleanup(func() { SetDefault(0) })
	SetDefault(12345)
	if Default() != 12345 || Or(0) != 12345 || Or(7) != 7 {
		t.Fatal("SetDefault is not the default")
	}
	SetDefault(0)
	if Default() == 12345 {
		t.Fatal("SetDefault(0) does not restore the default")
	}
}
