package main

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/internal/probe"
)

// startServers runs n `parasol probe serve` processes on loopback ports
// the system chooses and returns their addresses.
func startServers(t *testing.T, n int) []string {
	t.Helper()
	var hosts []string
	for i := 0; i < n; i++ {
		cmd := exec.Command("parasol", "probe", "serve", "--listen", "127.0.0.1:0")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			t.Fatalf("serve printed no address: %v", err)
		}
		f := strings.Fields(line)
		hosts = append(hosts, f[len(f)-1])
	}
	return hosts
}

// Three serve processes on localhost: measure writes a machine that
// loads, as parasol fmt leaves it, with a send time for every pair. How
// close its prediction comes to a fresh ping-pong is logged, not judged
// here: over real TCP on a loaded shared machine the two medians, taken
// at different moments, were seen twice apart, the scheduler deciding.
// internal/probe's TestProbedMachinePredictsAnUnmeasuredSize judges it
// on a link whose clock only the traffic moves.
func TestProbeMeasureOverLoopbackWritesAMachineForEveryPair(t *testing.T) {
	if testing.Short() {
		t.Skip("measures real TCP traffic")
	}
	hosts := startServers(t, 3)
	const size = 512 << 10 // between measured sizes, measured by none
	file := filepath.Join(t.TempDir(), "loopback.machine")
	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr}
	args := append([]string{"probe", "measure", "-o", file, "--sizes", "1,4KiB,64KiB,256KiB,1MiB", "--reps", "21", "--name", "loopback"}, hosts...)
	if code := run(e, args); code != 0 {
		t.Fatalf("probe measure exited %d: %s", code, stderr.String())
	}
	m, err := eval.Load(file)
	if err != nil {
		t.Fatalf("the written machine does not load: %v", err)
	}
	requireFormatted(t, file)
	for _, pair := range [][2]int{{0, 1}, {0, 2}, {1, 2}, {2, 0}} {
		v, err := m.Call("MPI.send", size, pair[0], pair[1])
		if err != nil {
			t.Fatal(err)
		}
		if !(v.Num > 0) || math.IsInf(v.Num, 0) {
			t.Errorf("MPI.send(512KiB, %d, %d) = %g s, want a positive time", pair[0], pair[1], v.Num)
		}
	}
	predicted, err := m.Call("MPI.send", size, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := probe.PingPong(context.Background(), hosts[1], size, 41, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("MPI.send(512KiB, 0, 1): predicted %.1f us, a fresh ping-pong %.1f us", predicted.Num*1e6, fresh*1e6)
}
