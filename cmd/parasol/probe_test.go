package main

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/internal/probe"
	"github.com/parasol-lang/parasol/parser"
)

// requireFormatted fails unless the file is as parasol fmt leaves it.
func requireFormatted(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(path, string(data))
	if err != nil {
		t.Fatal(err)
	}
	if want, err := formatChecked(f); err != nil || want != string(data) {
		t.Errorf("%s is not formatted (parasol fmt -d shows how): %v", path, err)
	}
}

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

// The acceptance test: three serve processes on localhost,
// measure writes a machine that loads, and its MPI.send for a size it did
// not measure is within 20% of a fresh ping-pong. Both figures are medians
// of many repetitions, and probe and ping-pong are tried up to six
// times, so that a moment of load on a small shared machine does not
// decide it.
func TestProbedMachinePredictsAFreshPingPong(t *testing.T) {
	if testing.Short() {
		t.Skip("measures real TCP traffic")
	}
	hosts := startServers(t, 3)
	const size = 512 << 10 // between measured sizes, measured by none
	var predicted, fresh float64
	for try := 0; try < 6; try++ {
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
		if try == 0 {
			requireFormatted(t, file)
		}
		v, err := m.Call("MPI.send", size, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		predicted = v.Num
		if fresh, err = probe.PingPong(context.Background(), hosts[1], size, 41, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		if math.Abs(predicted-fresh) <= 0.2*fresh {
			t.Logf("MPI.send(512KiB, 0, 1): predicted %.1f us, measured %.1f us", predicted*1e6, fresh*1e6)
			return
		}
	}
	t.Errorf("MPI.send(512KiB, 0, 1) predicts %.1f us, a fresh ping-pong measures %.1f us: more than 20%% apart", predicted*1e6, fresh*1e6)
}
