package eval

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/stdlib"
)

// TestExamplesLoad loads every machine of every file in examples/ and every
// standard machine.
func TestExamplesLoad(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.machine")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, n := range stdlib.MachineNames() {
		files = append(files, "std:"+n)
	}
	for _, f := range files {
		names, err := MachineNames(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, n := range names {
			if _, err := Load(f, WithMachine(n)); err != nil {
				t.Errorf("%s (%s): %v", f, n, err)
			}
		}
	}
}

// TestParasolI checks that the Parasol I example loads with its implied
// units (seed 002 §2.3: times in ns, link speed in B/s, delays in %).
func TestParasolI(t *testing.T) {
	m, err := Load("../examples/parasol1.machine")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		expr string
		want lang.Value
	}{
		{"processor(1).createjob", lang.Quantity(1.2e3*1e-9, lang.TimeDim)},
		{"processor(1).jobswitch", lang.Quantity(6e2*1e-9, lang.TimeDim)},
		{"processor(1).branchdelay", lang.Quantity(20e-9, lang.TimeDim)},
		{"processor(1).maxrecvdelay", lang.Num(0.30)},
		{"processor(1).maxroutedelay", lang.Num(0.05)},
		{"processor(1).mantissa", lang.Num(24)},
		{`processor(1)."fp type"`, lang.StringValue("floating")},
		{"processor(1).fp_type", lang.StringValue("floating")},
		{"processor(1).float_timings.mul", lang.Quantity(550e-9, lang.TimeDim)},
		{"processor(1).double_timings.div", lang.Quantity(1600e-9, lang.TimeDim)},
		{"processor(1).processorcache.size", lang.Quantity(4096, lang.SizeDim)},
		{"topology(100).create_time", lang.Quantity(3.2e3*1e-9, lang.TimeDim)},
		{"topology(100).link(0).linklatency", lang.Quantity(0.23e-9, lang.TimeDim)},
		{"topology(100).link(0).linkspeed", lang.Quantity(2667231, lang.RateDim)},
		{"topology(100).link(0).speed", lang.Quantity(2667231, lang.RateDim)},
		{"topology(100).link(0).linkio", lang.BoolValue(false)},
		{"topology(100).link(1).linkio", lang.BoolValue(false)},
		{"topology(100).link(0).processornumber(0)", lang.Num(43)},
		{"topology(100).link(0).processornumber(1)", lang.Num(45)},
		{"topology(100).link(1).processortype(1)", lang.Num(2)},
		{"machinecombinations.maxtotalspeed", lang.Quantity(1.1e9, lang.RateDim)},
		{"nodes", lang.Num(3)},
		{"links", lang.Num(2)},
		{"diameter", lang.Num(2)},
		// 43 and 47 each have one link, 45 has two: 4 link ends of 2667231 B/s.
		{"maxtotalspeed", lang.Quantity(4*2667231, lang.RateDim)},
	}
	for _, tt := range tests {
		got, err := m.Eval(tt.expr)
		if err != nil {
			t.Errorf("%s: %v", tt.expr, err)
			continue
		}
		if !sameValue(got, tt.want) {
			t.Errorf("%s = %v, want %v", tt.expr, got, tt.want)
		}
	}
	// Computation/communication ratio (seed 002 §1): float multiplies per
	// byte at the processor's full transfer rate. Processor 1's busiest node
	// (45) has two links, processor 2's (47) one.
	for _, tt := range []struct {
		expr       string
		mul, links float64
	}{{"processor(1).compcomm", 550e-9, 2}, {"processor(2).compcomm", 100e-9, 1}} {
		got, err := m.Eval(tt.expr)
		want := lang.Quantity(1/tt.mul/(tt.links*2667231), lang.Dim{Size: -1})
		if err != nil || !sameValue(got, want) {
			t.Errorf("%s = %v (%v), want %v", tt.expr, got, err, want)
		}
	}
	// The PVM primitive from its definition: 100us + n/linkspeed + hops*linklatency.
	got, err := m.Call("PVM.send", 1024, 43, 47)
	if err != nil {
		t.Fatal(err)
	}
	want := 100e-6 + 1024/2667231.0 + 2*0.23e-9
	if !sameValue(got, lang.Quantity(want, lang.TimeDim)) {
		t.Errorf("PVM.send(1024, 43, 47) = %v, want %g s", got, want)
	}
	// A file with several machines selects one by name.
	other, err := Load("../examples/parasol1.machine", WithMachine("Another Virtual Machine"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := other.Eval("nodes"); v.Num != 3 {
		t.Errorf("second machine has %v nodes, want 3", v)
	}
}

// TestConcurrentQueries runs queries on one machine from many goroutines;
// run with -race.
func TestConcurrentQueries(t *testing.T) {
	m, err := Load("../examples/parasol1.machine")
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Func("Express.combine")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := m.Call("Express.combine", 64, 8)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				v, err := f.Call(lang.Num(64), lang.Num(8))
				if err != nil || !sameValue(v, want) {
					errs <- err
					return
				}
				// Alternate argument types so that specialisation is exercised.
				if _, err := f.Call(lang.Quantity(64, lang.SizeDim), lang.Num(float64(g+2))); err != nil {
					errs <- err
					return
				}
				if _, err := m.Eval("PVM.send(1KB, 43, 47) + diameter * 1ns"); err != nil {
					errs <- err
					return
				}
				if _, err := m.Eval("hops(43, 47)"); err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent query: %v", err)
	}
}

func TestSetErrors(t *testing.T) {
	for _, tt := range []struct{ set, want string }{
		{"nosuch=1", "unknown name nosuch"},
		{"topology(100).link(0).linkspeed=5ns", "linkspeed expects a rate"},
		{"topology(100).link(9).linkspeed=5MB/s", "no link 9"},
		{"processor(1).createjob=1.2.3", "syntax error"},
	} {
		s, err := ParseSet(tt.set)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Load("../examples/parasol1.machine", WithSet(s.Path, s.Value))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("--set %s: got %v, want an error containing %q", tt.set, err, tt.want)
		}
	}
	if _, err := ParseSet("novalue"); err == nil {
		t.Error("ParseSet accepted a string without '='")
	}
}
