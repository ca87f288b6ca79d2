package eval

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/runtime"
)

func clockMachine(fields string) string {
	return "machine \"c\" {\n\tprocessor p {\n" + fields + "\n\t}\n\ttopology main = hypercube(1) { node = p; latency = 1us; speed = 1MB/s }\n}\n"
}

// TestClockFieldsGiveEachProcessorItsClock: clock fields are values or
// draws, read by the runtime as distributions; with none the clock is
// perfect.
func TestClockFieldsGiveEachProcessorItsClock(t *testing.T) {
	for _, tc := range []struct {
		name, fields string
		want         runtime.Clock
	}{
		{"none: a perfect clock", "", runtime.Clock{}},
		{"fixed offset and drift", "clock_offset = -250ns; clock_drift = 2e-6",
			runtime.Clock{Offset: runtime.Dist{A: -250e-9}, Drift: runtime.Dist{A: 2e-6}}},
		{"offset drawn uniformly", "clock_offset = uniform(-1us, 1us)", runtime.Clock{Offset: runtime.Dist{Kind: runtime.DistUniform, A: -1e-6, B: 1e-6}}},
		{"drift drawn normally", "clock_drift = normal(0, 1e-6)", runtime.Clock{Drift: runtime.Dist{Kind: runtime.DistNormal, B: 1e-6}}},
		{"a plain jitter is plus or minus it", "clock_jitter = 5ns", runtime.Clock{Jitter: runtime.Dist{Kind: runtime.DistUniform, A: -5e-9, B: 5e-9}}},
		{"jitter from a range", "clock_jitter = uniform(0s, 2ns)", runtime.Clock{Jitter: runtime.Dist{Kind: runtime.DistUniform, B: 2e-9}}},
		{"arguments are expressions", "clock_offset = uniform(-2 * 500ns, 1us / 2)", runtime.Clock{Offset: runtime.Dist{Kind: runtime.DistUniform, A: -1e-6, B: 0.5e-6}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := LoadSource("c.machine", clockMachine(tc.fields))
			if err != nil {
				t.Fatal(err)
			}
			top, err := m.Topology("")
			if err != nil {
				t.Fatal(err)
			}
			got := top.Clock(top.NodeType(0))
			if !clockNear(got, tc.want) {
				t.Errorf("clock = %+v, want %+v", got, tc.want)
			}
			if got.Perfect() != (tc.fields == "") {
				t.Errorf("Perfect() = %v with fields %q", got.Perfect(), tc.fields)
			}
		})
	}
}

func clockNear(a, b runtime.Clock) bool {
	near := func(x, y runtime.Dist) bool {
		return x.Kind == y.Kind && math.Abs(x.A-y.A) < 1e-18 && math.Abs(x.B-y.B) < 1e-18
	}
	return near(a.Offset, b.Offset) && near(a.Drift, b.Drift) && near(a.Jitter, b.Jitter)
}

// TestRandomClockFieldsReadAsTheirMean: in an expression a drawn field is
// its mean, and a jitter of ±j is j, as written.
func TestRandomClockFieldsReadAsTheirMean(t *testing.T) {
	m, err := LoadSource("c.machine", clockMachine("clock_offset = uniform(0s, 2us); clock_drift = normal(1e-6, 1e-7); clock_jitter = 5ns"))
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]float64{"processor(p).clock_offset": 1e-6, "processor(p).clock_drift": 1e-6, "processor(p).clock_jitter": 5e-9} {
		v, err := m.Eval(q)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(v.Num-want) > 1e-18 {
			t.Errorf("%s = %v, want %g", q, v, want)
		}
	}
}

// TestClockDrawsStayInTheirDistribution: uniform draws stay in range and
// average to the middle; normal draws have the mean and spread asked for.
func TestClockDrawsStayInTheirDistribution(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	u := runtime.Dist{Kind: runtime.DistUniform, A: -1, B: 3}
	n := runtime.Dist{Kind: runtime.DistNormal, A: 2, B: 0.5}
	const draws = 20000
	var su, sn, sn2 float64
	for range draws {
		x := u.Draw(r)
		if x < -1 || x > 3 {
			t.Fatalf("uniform(-1, 3) drew %g", x)
		}
		su += x
		y := n.Draw(r)
		sn += y
		sn2 += y * y
	}
	if mean := su / draws; math.Abs(mean-1) > 0.05 {
		t.Errorf("uniform(-1, 3) mean %g, want 1", mean)
	}
	mean := sn / draws
	sd := math.Sqrt(sn2/draws - mean*mean)
	if math.Abs(mean-2) > 0.02 || math.Abs(sd-0.5) > 0.02 {
		t.Errorf("normal(2, 0.5): mean %g, sd %g", mean, sd)
	}
	if (runtime.Dist{A: 7}).Draw(r) != 7 {
		t.Error("a fixed value must draw itself")
	}
}

// TestClockFieldErrorsArePositioned: a draw outside the clock fields, and
// a wrong clock value, are errors at their position saying what was
// expected.
func TestClockFieldErrorsArePositioned(t *testing.T) {
	for _, tc := range []struct {
		name, fields, want string
	}{
		{"uniform in a param", "clock_offset = 0s }\n\tparam x = uniform(1us, 2us)\n\tprocessor q {", "c.machine:4:12: uniform(…) draws a new value for every run, so only a processor's clock fields take it"},
		{"normal in another field", "send_overhead = normal(1us, 1ns)", "c.machine:3:19: normal(…) draws a new value"},
		{"offset not a time", "clock_offset = uniform(-1, 1)", "c.machine:3:26: clock_offset takes a time such as 1us, got a number (-1)"},
		{"drift with a unit", "clock_drift = 1us", "c.machine:3:17: clock_drift takes a plain number such as 1e-6"},
		{"bounds reversed", "clock_offset = uniform(1us, -1us)", "c.machine:3:18: uniform(LOW, HIGH) needs LOW ≤ HIGH, got uniform(1us, -1us)"},
		{"negative spread", "clock_jitter = normal(0s, -1ns)", "c.machine:3:29: normal(MEAN, SD) needs SD ≥ 0"},
		{"negative jitter", "clock_jitter = -5ns", "c.machine:3:18: clock_jitter = j means a jitter of ±j"},
		{"a stopping clock", "clock_drift = -1", "c.machine:3:17: clock_drift must be above -1"},
		{"a drift drawn mostly backwards", "clock_drift = normal(-1.5, 1)", "c.machine:3:17: the mean of clock_drift must be above -1"},
		{"one argument", "clock_offset = uniform(1us)", "c.machine:3:18: uniform takes two arguments, got 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadSource("c.machine", clockMachine("\t\t"+tc.fields))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestClockRatesAreAlwaysPositive(t *testing.T) {
	for _, tc := range []struct {
		name  string
		drift runtime.Dist
	}{
		{"a fixed drift", runtime.Dist{A: -0.5}},
		{"a uniform drift", runtime.Dist{Kind: runtime.DistUniform, A: -0.9, B: 3}},
		{"a normal drift wider than 1", runtime.Dist{Kind: runtime.DistNormal, B: 10}},
		{"a normal drift near -1", runtime.Dist{Kind: runtime.DistNormal, A: -0.999, B: 0.5}},
	} {
		r := rand.New(rand.NewPCG(1, 2))
		for range 10000 {
			if rate := (runtime.Clock{Drift: tc.drift}).DrawRate(r); !(rate > 0) {
				t.Fatalf("%s: rate %g; a clock must run forwards", tc.name, rate)
			}
		}
	}
}
