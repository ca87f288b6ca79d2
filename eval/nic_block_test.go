package eval

import (
	"reflect"
	"strings"
	"testing"
)

// A processor takes its NIC fields from the nic block it names, its own
// overriding the block's: examples/nic.machine's gateway (node 0) states
// send_gap = 500ns itself, its hosts only nic = cx, whose fields the
// file gives (g = 1us, 0.1 ns/B, two NICs, rendezvous = match).
func TestProcessorTakesItsNICBlocksFields(t *testing.T) {
	m, err := Load("../examples/nic.machine")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := m.Spec("")
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.Nodes) < 2 {
		t.Fatalf("%d node parameter sets, want one per node type (a gateway and hosts differ)", len(spec.Nodes))
	}
	gw, host := *spec.Node(0), *spec.Node(1)
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"gateway send_gap (its own)", gw.SendGap, 500e-9},
		{"gateway recv_gap (cx's)", gw.RecvGap, 1e-6},
		{"host send_gap (cx's)", host.SendGap, 1e-6},
		{"host recv_gap (cx's)", host.RecvGap, 1e-6},
		{"host send_gap_per_byte", host.SendGapPerByte, 0.1e-9},
		{"host recv_gap_per_byte", host.RecvGapPerByte, 0.1e-9},
		{"host nics", float64(host.NICs), 2},
		{"host send_overhead (its own)", host.SendOverhead, 300e-9},
	} {
		if !near(c.got, c.want, 1e-12) {
			t.Errorf("%s = %g, want %g", c.what, c.got, c.want)
		}
	}
	if !host.MatchRendezvous || !gw.MatchRendezvous {
		t.Errorf("rendezvous: host %v, gateway %v; want match from cx for both", host.MatchRendezvous, gw.MatchRendezvous)
	}

	// --set on the nic block reaches every processor that does not
	// override the field; an expression reads the field through the
	// processor.
	m2, err := Load("../examples/nic.machine", WithSet("nic(cx).send_gap", "2us"))
	if err != nil {
		t.Fatal(err)
	}
	spec2, err := m2.Spec("")
	if err != nil {
		t.Fatal(err)
	}
	if got := spec2.Node(1).SendGap; !near(got, 2e-6, 1e-12) {
		t.Errorf("host send_gap after --set nic(cx).send_gap=2us = %g, want 2e-6", got)
	}
	if got := spec2.Node(0).SendGap; !near(got, 500e-9, 1e-12) {
		t.Errorf("gateway send_gap after --set nic(cx).send_gap=2us = %g, want its own 5e-7", got)
	}
	v, err := m2.Eval("processor(host).send_gap")
	if err != nil || !near(v.Num, 2e-6, 1e-12) {
		t.Errorf("processor(host).send_gap = %v (%v), want 2us through its nic block", v, err)
	}
}

// The same fields in a nic block or on the processor make the same
// network: the block only says them once.
func TestNICBlockIsItsFieldsOnTheProcessor(t *testing.T) {
	const fields = `send_gap = 3us
		recv_gap = 2us
		send_gap_per_byte = 1ns/B
		recv_gap_per_byte = 2ns/B
		send_overhead_per_byte = 0.5ns/B
		recv_overhead_per_byte = 0.25ns/B
		nics = 3
		rendezvous = match`
	machine := func(nic, proc string) string {
		return `machine "m" {
	` + nic + `
	processor pe {
		send_overhead = 1us
		` + proc + `
	}
	topology t {
		node 0 .. 2 = pe
		link 0 -- 1
		link 1 -- 2
		latency = 1us
		speed = 1GB/s
	}
}`
	}
	specOf := func(text string) any {
		t.Helper()
		m, err := LoadSource("nic.machine", text)
		if err != nil {
			t.Fatal(err)
		}
		s, err := m.Spec("")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	inBlock := specOf(machine("nic x {\n"+fields+"\n}", "nic = x"))
	onProc := specOf(machine("", fields))
	if !reflect.DeepEqual(inBlock, onProc) {
		t.Errorf("a nic block's fields make\n%+v\nthe processor's\n%+v", inBlock, onProc)
	}
	without := specOf(machine("nic x {\n"+fields+"\n}", ""))
	if reflect.DeepEqual(without, onProc) {
		t.Error("a nic block no processor names changed nothing? The test's machines are not what it means")
	}
}

// A nic = that names no nic block is an error at the name, with the
// block it most resembles; so is nic(…) in a reference, and a nic
// block's nics beyond the runtime's bound.
func TestNICBlockErrors(t *testing.T) {
	const m = `machine "m" {
	nic fast {
		send_gap = 1us
	}
	processor pe {
		nic = fsat
	}
	topology t {
		node 0 .. 1 = pe
		link 0 -- 1
		latency = 1us
		speed = 1GB/s
	}
}`
	for _, c := range []struct {
		what, text string
		opts       []Option
		want       string
	}{
		{"a misspelt nic", m, nil, `nic.machine:6:9: no nic fsat (did you mean "fast"?)`},
		{"a param naming no nic", strings.Replace(m, "nic = fsat", "nic = which", 1) + "\nparam which = \"fsat\"", nil, `nic.machine:6:9: no nic fsat (did you mean "fast"?)`},
		{"a misspelt nic in --set", strings.Replace(m, "fsat", "fast", 1), []Option{WithSet("nic(fsat).send_gap", "2us")}, `no nic fsat in machine "m" (did you mean "fast"?)`},
		{"too many nics", strings.Replace(strings.Replace(m, "fsat", "fast", 1), "send_gap = 1us", "nics = 1000", 1), nil, `nic.machine:3:10: nics = 1000: a processor has at most 256`},
		{"a field no nic has", strings.Replace(strings.Replace(m, "fsat", "fast", 1), "send_gap = 1us", "send_gapp = 1us", 1), nil, `nic.machine:3:3: unknown field send_gapp in nic fast (did you mean "send_gap"?)`},
	} {
		_, err := LoadSource("nic.machine", c.text, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.what, err, c.want)
		}
	}
}

// A processor may name its nic block by a param holding the name (or by
// a string), as node = may name a processor type: --set which=fast
// changes every processor that names its NIC by it.
func TestProcessorNamesItsNICBlockByAParam(t *testing.T) {
	const text = `machine "m" {
	param which = "slow"
	nic fast {
		send_gap = 1us
	}
	nic slow {
		send_gap = 5us
	}
	processor pe {
		nic = which
	}
	processor pq {
		nic = "fast"
	}
	topology t {
		node 0 = pe
		node 1 = pq
		link 0 -- 1
		latency = 1us
		speed = 1GB/s
	}
}`
	for _, c := range []struct {
		sets   []Option
		pe, pq float64
	}{
		{nil, 5e-6, 1e-6},
		{[]Option{WithSet("which", `"fast"`)}, 1e-6, 1e-6},
	} {
		m, err := LoadSource("nic.machine", text, c.sets...)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := m.Spec("")
		if err != nil {
			t.Fatal(err)
		}
		if got := spec.Node(0).SendGap; !near(got, c.pe, 1e-12) {
			t.Errorf("%d sets: pe's send_gap %g, want %g", len(c.sets), got, c.pe)
		}
		if got := spec.Node(1).SendGap; !near(got, c.pq, 1e-12) {
			t.Errorf("%d sets: pq's send_gap %g, want %g", len(c.sets), got, c.pq)
		}
	}
}

// An expression reads a processor's NIC field through the nic block it
// names by a param as through one it names by a word: the block is the
// one nic evaluates to (processor(pe).send_gap is the slow block's 5 µs ×
// the diameter 2 of a chain of three, 10 µs; the fast block's 1 µs once
// --set names it), in a param of the machine and in an expression alike,
// where it was "processor(pe) does not set send_gap". A field the named
// block does not state is still not set.
func TestProcessorFieldReadsThroughANICBlockNamedByAParam(t *testing.T) {
	const text = `machine "m" {
	param which = "slow"
	param twice = processor(pe).send_gap * 2
	nic fast {
		send_gap = 1us
	}
	nic slow {
		send_gap = diameter * 5us
		recv_gap = 3us
	}
	processor pe {
		nic = which
	}
	topology t = chain(3) {
		latency = 1us
		speed = 1GB/s
	}
}`
	for _, c := range []struct {
		sets      []Option
		gap, recv float64
	}{
		{nil, 10e-6, 3e-6},
		{[]Option{WithSet("which", `"fast"`)}, 1e-6, 0},
	} {
		m, err := LoadSource("nic.machine", text, c.sets...)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []struct {
			expr string
			want float64
		}{
			{"processor(pe).send_gap", c.gap},
			{"twice", 2 * c.gap},
		} {
			v, err := m.Eval(e.expr)
			if err != nil {
				t.Errorf("%d sets: %s: %v", len(c.sets), e.expr, err)
				continue
			}
			if !near(v.Num, e.want, 1e-12) {
				t.Errorf("%d sets: %s = %g, want %g", len(c.sets), e.expr, v.Num, e.want)
			}
		}
		v, err := m.Eval("processor(pe).recv_gap")
		switch {
		case c.recv > 0 && (err != nil || !near(v.Num, c.recv, 1e-12)):
			t.Errorf("%d sets: processor(pe).recv_gap = %v (%v), want %g", len(c.sets), v, err, c.recv)
		case c.recv == 0 && (err == nil || !strings.Contains(err.Error(), "processor(pe) does not set recv_gap")):
			t.Errorf("%d sets: processor(pe).recv_gap: %v, want processor(pe) does not set recv_gap", len(c.sets), err)
		}
	}
}
