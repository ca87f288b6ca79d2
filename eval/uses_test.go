package eval

import "testing"

// A value says which possibly inexact derived indexes it rests on, found
// through params, functions, model sections and computed labels, and
// whether each is exact on the machine's topology.
func TestUsesFindsTheBisectionAValueRestsOn(t *testing.T) {
	const body = `
	param width = bisection
	param unrelated = nodes * 1us
	share(n: B) = n / width
	processor 1 { createjob = bisection * 1us }
	processor 2 { createjob = 1us }
	param which = 2
	pick() = processor(which - 1).createjob
	modelsection MPI {
		alltoall(n: B) = share(n) / (10MB/s)
		send(n: B) = n / (10MB/s)
	}
}`
	machines := []struct {
		name  string
		topo  string
		width float64
		exact bool
	}{
		{"bound", "topology t = hamiltonian(200, 7) { speed = 10MB/s }", -1, false},
		{"exact", "topology t = hypercube(4) { speed = 10MB/s }", 8, true},
	}
	queries := []struct {
		expr string
		uses bool
	}{
		{"bisection", true},
		{"bisection + 1", true},
		{"width", true},
		{"share(1KB)", true},
		{"MPI.alltoall(1KB)", true},
		{"pick()", true},
		{"processor(2).createjob", false},
		{"MPI.send(1KB)", false},
		{"unrelated", false},
		{"diameter", false},
	}
	for _, mc := range machines {
		m, err := LoadSource(mc.name+".machine", `machine "m" {`+"\n"+mc.topo+body)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range queries {
			uses, err := m.Uses(q.expr)
			if err != nil {
				t.Fatalf("%s: %s: %v", mc.name, q.expr, err)
			}
			if !q.uses {
				if len(uses) != 0 {
					t.Errorf("%s: %s uses %v, want none", mc.name, q.expr, uses)
				}
				continue
			}
			if len(uses) != 1 || uses[0].Name != "bisection" || uses[0].Exact != mc.exact || mc.width >= 0 && uses[0].Value != mc.width {
				t.Errorf("%s: %s uses %v, want bisection (exact %v)", mc.name, q.expr, uses, mc.exact)
			}
			note := Note(uses)
			if mc.exact != (note == "") {
				t.Errorf("%s: %s: note %q", mc.name, q.expr, note)
			}
		}
	}
}

func TestIndexUseReadsAsABound(t *testing.T) {
	tests := []struct {
		uses []IndexUse
		note string
	}{
		{[]IndexUse{{"bisection", 7, false}}, "(uses bisection ≤ 7, an upper bound)"},
		{[]IndexUse{{"bisection", 4, true}}, ""},
		{nil, ""},
	}
	for _, tc := range tests {
		if got := Note(tc.uses); got != tc.note {
			t.Errorf("Note(%v) = %q, want %q", tc.uses, got, tc.note)
		}
	}
	if got := (IndexUse{"bisection", 4, true}).String(); got != "bisection = 4" {
		t.Errorf("String() = %q", got)
	}
}
