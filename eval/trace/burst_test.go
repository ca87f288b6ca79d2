package trace_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/trace"
	"github.com/parasol-lang/parasol/runtime"
)

// TestBurstTrace: one send from processor 0 to 63 of std:xmp64 is one
// arrow from node 0's track to node 63's, its spans as long as the
// latency the simulation reports; a random permutation has an arrow per
// message delivered; both traces keep the format's rules.
func TestBurstTrace(t *testing.T) {
	spec := xmp64(t)
	res, err := runtime.Simulate(context.Background(), spec, runtime.Options{Op: "send", Size: 1000, Src: runtime.Node(0), Dst: runtime.Node(63), Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := trace.WriteBurst(&b, trace.Options{}, "send", res.Trace); err != nil {
		t.Fatal(err)
	}
	tr := validate(t, b.Bytes())
	if len(tr.flows) != 1 || tr.flows[0].from != 0 || tr.flows[0].to != 63 {
		t.Errorf("flows %+v, want one from 0 to 63", tr.flows)
	}
	for _, x := range tr.spans {
		if x.pid == 1 && math.Abs(x.dur-res.Latency.Mean*1e6) > 1e-6 {
			t.Errorf("span %q of %.6f µs, the message's latency is %.6f µs", x.name, x.dur, res.Latency.Mean*1e6)
		}
	}
	if tr.kinds[2]["link"] == 0 {
		t.Errorf("no link busy span")
	}

	res, err = runtime.Simulate(context.Background(), spec, runtime.Options{Op: "randperm", Size: 1000, Runs: 3, Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	one, err := runtime.Simulate(context.Background(), spec, runtime.Options{Op: "randperm", Size: 1000, Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := trace.WriteBurst(&b, trace.Options{}, "randperm", res.Trace); err != nil {
		t.Fatal(err)
	}
	tr = validate(t, b.Bytes())
	if len(tr.flows) != one.Messages {
		t.Errorf("%d flows, want one per message the first run delivered (%d)", len(tr.flows), one.Messages)
	}
	var tl *trace.TooLargeError
	if err := trace.WriteBurst(&b, trace.Options{MaxBytes: 100}, "randperm", res.Trace); err == nil || !errors.As(err, &tl) {
		t.Errorf("over the limit: %v, want a *trace.TooLargeError", err)
	}
}

// TestLoadPointTrace: an offered-load point's trace has every message the
// point generated (at least those it marked for measurement), an arrow per
// message delivered, and keeps the format's rules.
func TestLoadPointTrace(t *testing.T) {
	spec := xmp64(t)
	p, err := runtime.Offered(context.Background(), spec, runtime.Options{Op: "uniform", Size: 32, Trace: true}, runtime.Load{Fraction: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if p.Trace == nil || len(p.Trace.Messages) < p.Marked || p.Marked == 0 {
		t.Fatalf("trace of %d messages, %d marked", len(p.Trace.Messages), p.Marked)
	}
	delivered := 0
	for _, m := range p.Trace.Messages {
		if m.Delivered {
			delivered++
		}
	}
	var b bytes.Buffer
	if err := trace.WriteBurst(&b, trace.Options{}, "uniform", p.Trace); err != nil {
		t.Fatal(err)
	}
	tr := validate(t, b.Bytes())
	if len(tr.flows) != delivered {
		t.Errorf("%d flows, %d messages delivered", len(tr.flows), delivered)
	}
}

// xmp64 is std:xmp64's network.
func xmp64(t *testing.T) *runtime.Spec {
	t.Helper()
	m, err := eval.Load("std:xmp64")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := m.Spec("")
	if err != nil {
		t.Fatal(err)
	}
	return spec
}
