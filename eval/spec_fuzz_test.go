package eval_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/runtime"
	"github.com/parasol-lang/parasol/stdlib"
)

// FuzzMachineSimulates: whatever machine file loads, each of its
// topologies simulates every operation under every switching and routing
// to a result with finite times or to an error, within its event budget,
// never a panic; and its routing checks, an offered load runs and a
// program runs, analytically and simulated, the same way. The seeds are every
// machine of the repository and a few shapes the standard ones lack
// (buses, one-member I/O links, switches, explicit routes).
func FuzzMachineSimulates(f *testing.F) {
	var files []string
	for _, pat := range []string{"../examples/*.machine", "../examples/programs/*.machine"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), uint8(0), uint8(0), uint8(0), uint16(32))
	}
	for i, name := range stdlib.MachineNames() {
		src, _ := stdlib.Machine(name)
		f.Add(src, uint8(i), uint8(i), uint8(i), uint16(1000))
	}
	for i, src := range []string{
		`machine "bus" { processor p { name = "P" }
	topology t { node 0 .. 2 = p; bus 0, 1, 2 { latency = 1us; speed = 10MB/s } } }`,
		`machinename = "io"
processor = 1
name = "P"
topology = 1
linknumber = 0
linkio = 0
linklatency = 230
linkspeed = 2667231
procs_connected = 2
processortype0 = 1
processornumber = 0
processortype1 = 1
processornumber = 1
linknumber = 1
linkio = 1
linklatency = 230
linkspeed = 2667231
procs_connected = 1
processortype0 = 1
processornumber = 1`,
		`machine "sw" { processor p { name = "P" } switch s { hop_delay = 50ns }
	topology t { node 0 .. 2 = p; node 9 = s; latency = 10ns; speed = 100MB/s; for i in 0 .. 2 { link i -- 9 } } }`,
		`machine "mesh" { processor p { name = "P"; route_fixed = 1us }
	topology t = mesh(3, 3) { latency = 10ns; speed = 1GB/s; vcs = 2; arbitration = roundrobin; speedup = 2 } }`,
		`machine "cube" { processor p { name = "P" } topology t = hypercube(3) { latency = 10ns; speed = 1GB/s; window = 2; ack = 8B; packet = 16B; nic = true; buffering = output } }`,
	} {
		f.Add(src, uint8(3*i), uint8(i), uint8(2*i), uint16(8<<i))
	}
	ops := runtime.Ops()
	routings := append([]string{""}, runtime.Routings()...)
	switchings := []string{"", runtime.Wormhole.String(), runtime.SAF.String(), runtime.VCT.String(), runtime.Circuit.String()}
	f.Fuzz(func(t *testing.T, src string, op, sw, rt uint8, size uint16) {
		m, err := eval.LoadSource("fuzz.machine", src)
		if err != nil {
			return
		}
		for _, top := range m.Topologies() {
			// Small networks only, so that an input takes milliseconds.
			if top.Graph == nil || top.Graph.N() > 256 || top.Graph.NumLinks() > 1024 {
				continue
			}
			spec, err := m.Spec(top.Label)
			if err != nil {
				continue
			}
			opts := runtime.Options{Op: ops[int(op)%len(ops)], Size: int(size), Runs: 2, Workers: 1,
				MaxEvents: 200_000, MaxMemory: 64 << 20,
				Switching: switchings[int(sw)%len(switchings)], Routing: routings[int(rt)%len(routings)]}
			res, err := runtime.Simulate(context.Background(), spec, opts)
			if err == nil {
				if res.Events > 2*opts.MaxEvents {
					t.Errorf("%s: %d events, past the budget of %d a run", top.Label, res.Events, opts.MaxEvents)
				}
				for name, v := range map[string]float64{"latency max": res.Latency.Max, "latency mean": res.Latency.Mean, "makespan": res.Makespan} {
					if math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
						t.Errorf("%s, %+v: %s = %v", top.Label, opts, name, v)
					}
				}
			} else if strings.Contains(err.Error(), "runtime error") {
				t.Errorf("%s: %v", top.Label, err)
			}
			if top.Graph.N() <= 64 {
				_, _ = runtime.CheckRouting(context.Background(), spec, runtime.CheckOptions{Routing: opts.Routing})
				lr, err := runtime.Offered(context.Background(), spec, opts, runtime.Load{Fraction: 0.05 + float64(op%10)/10})
				if err == nil {
					for name, v := range map[string]float64{"offered": lr.Offered, "accepted": lr.Accepted, "latency mean": lr.Latency.Mean} {
						if math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
							t.Errorf("%s, %+v, offered load: %s = %v", top.Label, opts, name, v)
						}
					}
				} else if strings.Contains(err.Error(), "runtime error") {
					t.Errorf("%s, offered load: %v", top.Label, err)
				}
				runRing(t, m, top.Label, opts, 1+int(op%8))
			}
		}
	})
}

// ringBody is a program that any machine runs: a ring exchange between
// collectives.
const ringBody = `barrier()
let right = mod(rank + 1, ranks)
let left = mod(rank + ranks - 1, ranks)
if mod(rank, 2) == 0 { send(64B, to: right) recv(from: left) } else { recv(from: left) send(64B, to: right) }
allreduce(1KB)
bcast(2KB, root: 0)`

// runRing runs ringBody on topology top of m, analytically and
// simulated, with ranks ranks: an answer with finite times or an error.
func runRing(t *testing.T, m *eval.Machine, top string, opts runtime.Options, ranks int) {
	m, err := m.OnTopology(top)
	if err != nil {
		t.Errorf("%s: %v", top, err)
		return
	}
	p, err := eval.ParseProgramBody(m, ringBody)
	if err != nil {
		t.Fatalf("the ring program: %v", err)
	}
	s, err := p.Schedule(m, eval.ScheduleOptions{Ranks: ranks})
	if err != nil {
		return
	}
	// Simulated alone, and both: a machine without a model section has no
	// analytic answer (an error), but is simulated all the same.
	for _, simulatedOnly := range []bool{true, false} {
		res, err := program.Run(context.Background(), m, s, program.RunOptions{Simulated: simulatedOnly, ProgramOptions: runtime.ProgramOptions{
			MaxEvents: opts.MaxEvents, MaxMemory: opts.MaxMemory, Routing: opts.Routing, Switching: opts.Switching}})
		if err != nil {
			if strings.Contains(err.Error(), "runtime error") {
				t.Errorf("%s, program: %v", top, err)
			}
			continue
		}
		for _, pr := range []*runtime.ProgramResult{res.Analytic, res.Simulated} {
			if pr == nil {
				continue
			}
			for _, r := range pr.Ranks {
				if math.IsInf(r.End, 0) || math.IsNaN(r.End) || r.End < 0 {
					t.Errorf("%s, program %s: rank %d ends at %v", top, pr.Method, r.Rank, r.End)
				}
			}
		}
	}
}
