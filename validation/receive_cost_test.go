package validation

import (
	"math"
	"testing"

	"github.com/parasol-lang/parasol/eval"
)

// TestReceiveCostIsRecvCPU holds every standard machine's processors to
// one receive cost: what the simulator charges a receiver per message
// (recv_overhead) is the model's recv_cpu, which std:models' receive
// primitives and all-to-all are built on, so `parasol compare MACHINE
// MPI.recv` compares a figure with itself, never with a forgotten zero.
func TestReceiveCostIsRecvCPU(t *testing.T) {
	eachMachine(t, func(t *testing.T, name string, m *eval.Machine) {
		if _, err := m.Eval("MPI.recv(1KB)"); err != nil {
			t.Skipf("no receive primitive: %v", err)
		}
		want := evalNum(t, m, "recv_cpu")
		spec, err := m.Spec("")
		if err != nil {
			t.Fatal(err)
		}
		g := spec.Graph
		for i := 0; i < g.NumProcs(); i++ {
			v := g.Proc(i)
			got := spec.Node(v).RecvOverhead
			if math.Abs(got-want) > 1e-9*want {
				t.Fatalf("processor %d: the simulator charges %g s per received message, recv_cpu is %g s", g.ID(v), got, want)
			}
		}
	})
}
