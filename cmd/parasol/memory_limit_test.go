package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// --max-memory is the Go runtime's soft memory limit as well as the
// estimates' bound, for every command that takes it; without it, the
// runtime's limit is left as it was.
func TestMaxMemoryIsTheRuntimeMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	machine := filepath.Join(dir, "ring.machine")
	if err := os.WriteFile(machine, []byte(`machine "m" {
	processor p { send_overhead = 1us }
	topology t = ring(4) { speed = 1GB/s  switching = saf }
	modelsection MPI { send(n: B, src, dst) = 1us + n / 1GB/s }
}
`), 0o666); err != nil {
		t.Fatal(err)
	}
	var shard, stderr bytes.Buffer
	if code := run(&env{stdout: &shard, stderr: &stderr}, []string{"sim", machine, "--op", "send", "--runs", "2", "--shard", "0/1"}); code != 0 {
		t.Fatalf("sim --shard: exit %d: %s", code, stderr.String())
	}
	shardFile := filepath.Join(dir, "s0")
	if err := os.WriteFile(shardFile, shard.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	const untouched = math.MaxInt64 - 1
	tests := []struct {
		name string
		args []string
		want int64
	}{
		{"check", []string{"check", "--max-memory", "300MB", machine}, 300e6},
		{"eval, by the flags every machine command shares", []string{"eval", "--max-memory", "1.5GiB", machine, "MPI.send(1KB, 0, 1)"}, 3 << 29},
		{"sim", []string{"sim", "--max-memory=64MiB", machine, "--op", "send", "--runs", "2"}, 64 << 20},
		{"merge", []string{"merge", "--max-memory", "2GB", shardFile}, 2e9},
		{"no --max-memory", []string{"eval", machine, "MPI.send(1KB, 0, 1)"}, untouched},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prior := debug.SetMemoryLimit(untouched)
			t.Cleanup(func() { debug.SetMemoryLimit(prior) })
			var stdout, stderr bytes.Buffer
			if code := run(&env{stdout: &stdout, stderr: &stderr}, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if got := debug.SetMemoryLimit(-1); got != tc.want {
				t.Errorf("the runtime's memory limit is %d bytes, want %d", got, tc.want)
			}
		})
	}
}
