package eval

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/runtime"
)

func loadSpec(t *testing.T, name string) (*Machine, *runtime.Spec) {
	t.Helper()
	m, err := Load(name)
	return machineSpec(t, m, err)
}

// sourceSpec loads a machine from its text and makes its first topology's Spec.
func sourceSpec(t testing.TB, name, src string) (*Machine, *runtime.Spec) {
	t.Helper()
	m, err := LoadSource(name, src)
	return machineSpec(t, m, err)
}

// machineSpec is the Spec of a loaded machine's first topology; err is
// the load's.
func machineSpec(t testing.TB, m *Machine, err error) (*Machine, *runtime.Spec) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := m.Spec("")
	if err != nil {
		t.Fatal(err)
	}
	return m, spec
}

// modelPrimitives lists the PVM, Express and MPI primitives of a machine.
func modelPrimitives(m *Machine) []string {
	var out []string
	for _, f := range m.Fields() {
		section, _, _ := strings.Cut(f.Path, ".")
		if f.Func && (section == "PVM" || section == "Express" || section == "MPI") {
			out = append(out, f.Path)
		}
	}
	return out
}

// Every primitive of std:models has an entry in compare's table, naming an
// operation the simulator runs or saying it is not a network operation.
func TestEveryStandardPrimitiveHasACounterpart(t *testing.T) {
	m, err := Load("std:models")
	if err != nil {
		t.Fatal(err)
	}
	prims := modelPrimitives(m)
	if len(prims) < 36 { // the primitives std:models defines today
		t.Fatalf("only %d primitives in std:models: %v", len(prims), prims)
	}
	for _, p := range prims {
		cp, ok := CounterpartOf(p)
		switch {
		case !ok:
			t.Errorf("%s has no counterpart", p)
		case cp.Op == "" && cp.NotNetwork == "":
			t.Errorf("%s: neither an operation nor a reason", p)
		case cp.Op != "":
			if _, ok := runtime.OpDoc(cp.Op); !ok {
				t.Errorf("%s: op %q is not simulated", p, cp.Op)
			}
			if cp.Metric != MetricLatency && cp.Metric != MetricMakespan && cp.Metric != MetricRecv {
				t.Errorf("%s: metric %q", p, cp.Metric)
			}
		}
	}
}

// On std:xmp64 (64 cores, a hypercube) and std:c104-chain (two processors
// through a chain of C104 switches, with acknowledgements) every standard
// primitive either simulates the table's operation to a finite figure or is
// refused as not a network operation.
func TestComparePrimitivesOnStandardMachines(t *testing.T) {
	for _, name := range []string{"std:xmp64", "std:c104-chain"} {
		m, spec := loadSpec(t, name)
		for _, p := range modelPrimitives(m) {
			cp, _ := CounterpartOf(p)
			c, err := Compare(context.Background(), m, spec, p, runtime.Options{Size: 256, Seed: 1})
			if cp.Op == "" {
				var ns *NotSimulatedError
				if !errors.As(err, &ns) || !strings.Contains(err.Error(), "not a network operation") {
					t.Errorf("%s %s: %v, want a refusal", name, p, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %s: %v", name, p, err)
				continue
			}
			if c.Op != cp.Op || c.Metric != cp.Metric || c.Result == nil || c.Result.Deadlock || c.Result.Messages == 0 {
				t.Errorf("%s %s: op %s metric %s result %+v", name, p, c.Op, c.Metric, c.Result)
			}
			for _, v := range []float64{c.Analytic, c.Simulated, c.Difference} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < -1 {
					t.Errorf("%s %s: analytic %g simulated %g difference %g", name, p, c.Analytic, c.Simulated, c.Difference)
				}
			}
		}
	}
}

// A barrier's messages carry no payload: the simulated barrier is the same
// at --size 4096 as at 0, its messages are empty, and the unused size is
// noted. A primitive that takes no size sends empty messages too.
func TestBarrierCarriesNoPayload(t *testing.T) {
	for _, name := range []string{"std:xmp64", "std:c104-chain"} {
		m, spec := loadSpec(t, name)
		for _, p := range []string{"MPI.barrier", "PVM.sync", "Express.sync"} {
			var sim [2]float64
			for i, size := range []int{0, 4096} {
				c, err := Compare(context.Background(), m, spec, p, runtime.Options{Size: size, Seed: 1})
				if err != nil {
					t.Fatalf("%s %s: %v", name, p, err)
				}
				if c.MessageSize != 0 {
					t.Errorf("%s %s --size %d: messages of %d bytes", name, p, size, c.MessageSize)
				}
				if noted := strings.Contains(c.Note, "--size 4096 is not used"); noted != (size == 4096) {
					t.Errorf("%s %s --size %d: note %q", name, p, size, c.Note)
				}
				sim[i] = c.Simulated
			}
			if sim[0] != sim[1] || sim[0] <= 0 {
				t.Errorf("%s %s: simulated %g at 0 B, %g at 4096 B", name, p, sim[0], sim[1])
			}
		}
	}
}

// MPI.allreduce is a reduce into Src then a broadcast from it, n bytes in
// every message: 2(p-1) messages whose makespan grows with n, not a
// barrier's empty dimension exchange. Express.combine is recursive
// doubling: p log2 p messages.
func TestAllreduceIsNotABarrier(t *testing.T) {
	m, spec := loadSpec(t, "std:xmp64")
	run := func(p string, size int) *Comparison {
		t.Helper()
		c, err := Compare(context.Background(), m, spec, p, runtime.Options{Size: size, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	barrier := run("MPI.barrier", 1024)
	small, large := run("MPI.allreduce", 32), run("MPI.allreduce", 1024)
	if large.Op != "allreduce" || large.Result.Messages != 2*63 || large.MessageSize != 1024 {
		t.Errorf("allreduce: op %s, %d messages of %d bytes; want allreduce, 126 of 1024", large.Op, large.Result.Messages, large.MessageSize)
	}
	if !(large.Simulated > small.Simulated && small.Simulated > barrier.Simulated) {
		t.Errorf("makespans: allreduce 1 KB %g, 32 B %g, barrier %g", large.Simulated, small.Simulated, barrier.Simulated)
	}
	if c := run("Express.combine", 64); c.Op != "combine" || c.Result.Messages != 64*6 {
		t.Errorf("combine: op %s, %d messages; want combine, 384", c.Op, c.Result.Messages)
	}
	// pvm_mcast sends to each of the k others in turn, not down a tree.
	if c := run("PVM.multicast", 64); c.Op != "scatter" || c.Args["k"] != 63 || c.Result.Messages != 63 {
		t.Errorf("multicast: op %s, k %g, %d messages", c.Op, c.Args["k"], c.Result.Messages)
	}
	// Express.exchange is one pair swapping, not every rank with r xor 1.
	if c := run("Express.exchange", 64); c.Op != "swap" || c.Result.Messages != 2 {
		t.Errorf("exchange: op %s, %d messages", c.Op, c.Result.Messages)
	}
}

// A receive primitive costs the receiver's part of a message; compare sets
// it beside the receive overhead the simulation charges at Dst.
func TestReceiveComparesTheReceiversCost(t *testing.T) {
	m, spec := sourceSpec(t, "recv.machine", `machine "recv" {
	processor cpu { recv_overhead = 3us }
	topology t = chain(3) { node = cpu; latency = 1us; speed = 1MB/s }
	modelsection MPI { recv(n: B) = 3us }
	modelsection PVM { receive(n: B) = 2us + n * 2ns / 1B }
}`)
	for _, tc := range []struct {
		prim string
		diff float64
	}{{"MPI.recv", 0}, {"PVM.receive", 3.0/4.0 - 1}} {
		c, err := Compare(context.Background(), m, spec, tc.prim, runtime.Options{Size: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if c.Metric != MetricRecv || !near(c.Simulated, 3e-6, 1e-12) || math.Abs(c.Difference-tc.diff) > 1e-12 {
			t.Errorf("%s: %s %g, difference %g", tc.prim, c.Metric, c.Simulated, c.Difference)
		}
	}
}

// Primitives compare cannot simulate are refused with the reason; --op
// (Options.Op) simulates a machine's own primitive.
func TestCompareRefusals(t *testing.T) {
	m, spec := sourceSpec(t, "own.machine", `machine "own" {
	processor cpu {}
	topology t = hypercube(2) { node = cpu; latency = 1us; speed = 1MB/s }
	modelsection MPI { scan(n: B, p) = 2 * p * 1us; spawn() = 1ms; packdouble(n) = n * 1ns }
}`)
	for _, tc := range []struct {
		prim, op, want string
	}{
		{"MPI.scan", "", "no simulated operation implements MPI.scan; compare knows send, recv"},
		{"MPI.spawn", "", "MPI.spawn is not a network operation (it starts a task"},
		{"MPI.packdouble", "", "MPI.packdouble is not a network operation (it copies items"},
		{"MPI.spawn", "send", "not a network operation"},
	} {
		_, err := Compare(context.Background(), m, spec, tc.prim, runtime.Options{Op: tc.op, Size: -1})
		var ns *NotSimulatedError
		if !errors.As(err, &ns) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.prim, err, tc.want)
		}
	}
	c, err := Compare(context.Background(), m, spec, "MPI.scan", runtime.Options{Op: "allreduce", Size: -1})
	if err != nil {
		t.Fatal(err)
	}
	if c.Op != "allreduce" || c.Metric != MetricMakespan || c.MessageSize != 1024 || c.Result.Messages != 6 {
		t.Errorf("scan as allreduce: op %s metric %s, %d messages of %d bytes", c.Op, c.Metric, c.Result.Messages, c.MessageSize)
	}
}

// A simulated cost equal to the analytic one up to float rounding is a
// difference of exactly 0, not -1.4e-16.
func TestEqualCostsHaveNoDifference(t *testing.T) {
	m, spec := loadSpec(t, "std:xmp64")
	c, err := Compare(context.Background(), m, spec, "MPI.send", runtime.Options{Size: 4000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c.Difference != 0 {
		t.Errorf("MPI.send 4000 B on std:xmp64: analytic %g, simulated %g, difference %g; want 0", c.Analytic, c.Simulated, c.Difference)
	}
}
