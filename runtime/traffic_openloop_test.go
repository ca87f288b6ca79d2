package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/parser"
)

func offered1(t testing.TB, spec *Spec, o Options, l Load) *LoadResult {
	t.Helper()
	r, err := Offered(context.Background(), spec, o, l)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestOfferedLoadBelowSaturationIsAccepted(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	for _, c := range []struct {
		op      string
		process Process
		load    float64
	}{
		{"uniform", Bernoulli, 0.1},
		{"uniform", Poisson, 0.1},
		{"transpose", Bernoulli, 0.05},
		{"tornado", Poisson, 0.1},
		{"randperm", Bernoulli, 0.1},
		{"neighbor", Bernoulli, 0.2},
	} {
		r := offered1(t, spec, Options{Op: c.op, Size: 32, Seed: 3}, Load{Fraction: c.load, Process: c.process})
		switch {
		case r.Saturated || !r.Drained || !r.Settled:
			t.Errorf("%s %s %g: saturated %v, drained %v, settled %v; want a settled, drained, unsaturated point", c.op, c.process, c.load, r.Saturated, r.Drained, r.Settled)
		case r.Marked == 0 || r.Messages != r.Marked || r.Undelivered != 0:
			t.Errorf("%s %s %g: %d of %d marked messages measured", c.op, c.process, c.load, r.Messages, r.Marked)
		case !near(r.Accepted, r.Offered, 0.05):
			t.Errorf("%s %s %g: accepted %g of offered %g", c.op, c.process, c.load, r.Accepted, r.Offered)
		case c.op == "uniform" && !near(r.Offered, c.load, 0.1):
			t.Errorf("%s %s %g: offered %g, want the load asked for", c.op, c.process, c.load, r.Offered)
		case r.Latency.Min < 14e-9:
			t.Errorf("%s %s %g: a latency of %g is below the zero-load 6+8 cycles", c.op, c.process, c.load, r.Latency.Min)
		case !near(r.Cycle, 1e-9, 1e-9) || !near(r.Measure, MeasureWindows*WindowCycles*1e-9, 1e-9):
			t.Errorf("%s %s %g: cycle %g, measurement %g; want 1 ns and %d windows of %d cycles", c.op, c.process, c.load, r.Cycle, r.Measure, MeasureWindows, WindowCycles)
		}
	}
}

func TestOfferedLoadBeyondCapacitySaturates(t *testing.T) {
	// Every processor sends to one: its ejection link accepts 1/15 of
	// what the others offer at full load.
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	r := offered1(t, spec, Options{Op: "hotspot", Size: 32, Dst: Node(5)}, Load{Fraction: 0.5})
	if !r.Saturated || r.Accepted >= r.Offered/2 {
		t.Errorf("saturated %v, accepted %g of offered %g; want saturation", r.Saturated, r.Accepted, r.Offered)
	}
}

func TestLatencyRisesWithOfferedLoad(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	pts, err := OfferedCurve(context.Background(), spec, Options{Op: "uniform", Size: 32, Seed: 1}, []Load{{Fraction: 0.05}, {Fraction: 0.3}, {Fraction: 0.9}})
	if err != nil {
		t.Fatal(err)
	}
	if !(pts[0].Latency.Mean < pts[1].Latency.Mean && pts[1].Latency.Mean < pts[2].Latency.Mean) {
		t.Errorf("mean latencies %g, %g, %g; want them rising with load", pts[0].Latency.Mean, pts[1].Latency.Mean, pts[2].Latency.Mean)
	}
	if pts[0].Saturated || !pts[2].Saturated {
		t.Errorf("saturated at 0.05: %v, at 0.9: %v; want only the second", pts[0].Saturated, pts[2].Saturated)
	}
}

func TestOfferedPointsDoNotDependOnTheCurveOrWorkers(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	o := Options{Op: "uniform", Size: 32, Seed: 9, LinkLoads: true}
	loads := []Load{{Fraction: 0.2}, {Fraction: 0.1, Process: Poisson}, {Fraction: 0.15}}
	o.Workers = 1
	one, err := OfferedCurve(context.Background(), spec, o, loads)
	if err != nil {
		t.Fatal(err)
	}
	o.Workers = 3
	three, err := OfferedCurve(context.Background(), spec, o, loads)
	if err != nil {
		t.Fatal(err)
	}
	alone := offered1(t, spec, o, loads[1])
	if !reflect.DeepEqual(one, three) || !reflect.DeepEqual(one[1], alone) {
		t.Errorf("a point's result depends on the workers or on the other points")
	}
	o.Seed = 10
	other := offered1(t, spec, o, loads[1])
	if reflect.DeepEqual(other.Latency, alone.Latency) {
		t.Errorf("seeds 9 and 10 give the same latencies %+v", alone.Latency)
	}
}

func TestOfferedPhasesCanBeFixed(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	r := offered1(t, spec, Options{Op: "uniform", Size: 32}, Load{Fraction: 0.1, Warmup: 500e-9, Measure: 6e-6})
	if !near(r.Warmup, 500e-9, 1e-9) || !near(r.Measure, 6e-6, 1e-9) {
		t.Errorf("warm-up %g, measurement %g; want 500 ns and 6 µs", r.Warmup, r.Measure)
	}
}

func TestOfferedRateIsAShareOfTheInjectionBandwidth(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	r := offered1(t, spec, Options{Op: "uniform", Size: 32}, Load{Rate: 0.4e9}) // a tenth of 4 GB/s
	if r.Load != 0.1 || !near(r.Offered, 0.1, 0.1) {
		t.Errorf("load %g, offered %g; want 0.1", r.Load, r.Offered)
	}
}

func TestOfferedPerLinkFiguresCoverTheMeasurement(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	r := offered1(t, spec, Options{Op: "neighbor", Size: 32, LinkLoads: true}, Load{Fraction: 0.2})
	var bytes, msgs float64
	for _, ll := range r.Links {
		bytes += ll.Bytes
		msgs += ll.Messages
		if ll.Util < 0 || ll.Util > 1 {
			t.Errorf("wire %d→%d util %g, want a share", ll.From, ll.To, ll.Util)
		}
	}
	if msgs == 0 || bytes != 32*msgs {
		t.Errorf("%g messages, %g bytes over the wires; want 32 bytes each", msgs, bytes)
	}
}

func TestOfferedRefusesWhatItCannotRun(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 2, 2)
	for _, c := range []struct {
		op   string
		load Load
		want string
	}{
		{"broadcast", Load{Fraction: 0.1}, "traffic pattern"},
		{"uniform", Load{}, "above 0"},
		{"uniform", Load{Fraction: 4.5}, "from 0 (excluded) to 4"},
		{"uniform", Load{Fraction: -0.1}, "from 0 (excluded) to 4"},
		{"uniform", Load{Rate: 17e9}, "injects at most"},
		{"uniform", Load{Fraction: 0.1, Warmup: -1}, "phase lengths"},
	} {
		_, err := Offered(context.Background(), spec, Options{Op: c.op, Size: 32}, c.load)
		var oe *OptionError
		if err == nil || !errors.As(err, &oe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: err = %v, want an OptionError saying %q", c.op, c.load, err, c.want)
		}
	}
}

func TestOfferedStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	_, err := OfferedCurve(ctx, spec, Options{Op: "uniform", Size: 32}, []Load{{Fraction: 0.1}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestOfferedMessagesCountAgainstTheMemoryLimit(t *testing.T) {
	// Messages are kept for the whole point: past what the limit leaves,
	// the point stops with the figure instead of growing.
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	o := Options{Op: "uniform", Size: 32, Workers: 1}
	o.MaxMemory = probeNeed(t, spec, o) + 200<<10
	_, err := Offered(context.Background(), spec, o, Load{Fraction: 0.5})
	var tl *limits.TooLarge
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "open-loop point") {
		t.Errorf("err = %v, want the open-loop point's messages refused", err)
	}
}

func TestFewMessagesAWindowAreNoSaturation(t *testing.T) {
	// A 2×2 mesh at a hundredth of its bandwidth delivers a handful of
	// messages a window: warm-up may not settle, and a message or two in
	// flight at the measurement's end is no shortfall.
	for _, f := range []float64{0.005, 0.01, 0.02} {
		spec := bookSimSpec(t, 1e-9, "mesh", 2, 2)
		r := offered1(t, spec, Options{Op: "uniform", Size: 32}, Load{Fraction: f})
		if r.Saturated || !r.Drained || r.Marked == 0 {
			t.Errorf("load %g: saturated %v, drained %v, %d marked; want an unsaturated, drained point", f, r.Saturated, r.Drained, r.Marked)
		}
	}
}

func TestOfferedListIsAUsersPattern(t *testing.T) {
	// Every rank of a 4×4 mesh sends, in turn, 32 bytes to the next rank
	// and 96 bytes to the one after (and once to itself, which is not
	// sent): the load counts their mean size.
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	list := make(MessageList, 16)
	for r := range list {
		list[r] = []ListedMessage{{Dst: (r + 1) % 16, Bytes: 32}, {Dst: r, Bytes: 8}, {Dst: (r + 2) % 16, Bytes: 96}}
	}
	r := offered1(t, spec, Options{Op: ListOp, Size: 1, Seed: 2, LinkLoads: true}, Load{Fraction: 0.1, List: list})
	if r.Saturated || !near(r.Offered, 0.1, 0.1) || !near(r.Accepted, r.Offered, 0.05) {
		t.Errorf("saturated %v, offered %g, accepted %g; want about 0.1 accepted", r.Saturated, r.Offered, r.Accepted)
	}
	var msgs, bytes float64
	for _, ll := range r.Links {
		if ll.From < 16 { // a processor's injection link
			msgs += ll.Messages
			bytes += ll.Bytes
		}
	}
	if mean := bytes / msgs; !near(mean, 64, 0.1) {
		t.Errorf("messages injected average %g bytes, want 64 (32 and 96 in turn)", mean)
	}
}

func TestMessageListOfTakesEachRanksSends(t *testing.T) {
	sc, err := parser.ReadTrace(strings.NewReader("src,dst,bytes\n0,1,32\n1,0,64\n0,2,4KB\n"), "t.csv", 0)
	if err != nil {
		t.Fatal(err)
	}
	got := MessageListOf(sc)
	want := MessageList{{{Dst: 1, Bytes: 32}, {Dst: 2, Bytes: 4000}}, {{Dst: 0, Bytes: 64}}, nil}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestOfferedRefusesListsTheNetworkCannotCarry(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 2, 2)
	for _, c := range []struct {
		list MessageList
		want string
	}{
		{nil, "needs a list of messages"},
		{MessageList{{{Dst: 4, Bytes: 8}}}, "ranks are 0..3"},
		{make(MessageList, 5), "has 5 ranks"},
		{MessageList{{{Dst: 0, Bytes: 8}}}, "no message from one processor to another"},
		{MessageList{{{Dst: 1, Bytes: -1}}}, "0 to 2^53 bytes"},
	} {
		_, err := Offered(context.Background(), spec, Options{Op: ListOp}, Load{Fraction: 0.1, List: c.list})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.list, err, c.want)
		}
	}
}

func TestAcceptedExceedsOfferedByNoMoreThanItsError(t *testing.T) {
	// Issue 26: accepted was reported above 1. What a point accepts in
	// its measurement is what it generated then plus what was already
	// in the network, less what is left at the end: the bytes in the
	// network when measurement began bound the excess.
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	pts, err := OfferedCurve(context.Background(), spec, Options{Op: "uniform", Size: 32, Seed: 1},
		[]Load{{Fraction: 0.05}, {Fraction: 0.2}, {Fraction: 0.6}, {Fraction: 1}, {Fraction: 0.1, Measure: 30e-9}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		if p.AcceptedError < 0 || p.Accepted > p.Offered+p.AcceptedError*(1+1e-12) {
			t.Errorf("load %g: accepted %g, offered %g, error %g; want accepted ≤ offered + error", p.Load, p.Accepted, p.Offered, p.AcceptedError)
		}
	}
	if p := pts[2]; !p.Saturated || p.Accepted > 0.6 || p.LatencyBound != "lower" {
		t.Errorf("load 0.6: saturated %v, accepted %g, latency bound %q; want saturated, accepted ≤ 0.6, a lower bound", p.Saturated, p.Accepted, p.LatencyBound)
	}
	if p := pts[0]; p.Saturated || p.LatencyBound != "" {
		t.Errorf("load 0.05: saturated %v, latency bound %q; want measured latencies", p.Saturated, p.LatencyBound)
	}
}

func TestSaturatedPointsCountHopsOverDeliveredMessages(t *testing.T) {
	// Issue 26: a saturated point's marked messages still in flight were
	// counted as delivered messages of 0 hops (hops mean 0.21, max 13),
	// and an age of 0 came out as 8.5e-22 s.
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	p := offered1(t, spec, Options{Op: "uniform", Size: 32, Seed: 1}, Load{Fraction: 0.6})
	if p.Undelivered == 0 || p.Messages == 0 {
		t.Fatalf("load 0.6: %d of %d marked messages delivered; want some delivered and some not", p.Messages, p.Marked)
	}
	if p.Messages != p.Marked-p.Undelivered {
		t.Errorf("%d messages of %d marked, %d undelivered; want the delivered ones", p.Messages, p.Marked, p.Undelivered)
	}
	// Uniform traffic on a 4×4 mesh: the links to and from the routers
	// and a mean distance of 2·(k²−1)/(3k)·k²/(k²−1) = 8/3 between
	// distinct routers, 4.67 hops.
	if math.Abs(p.Hops.Mean-(2+8.0/3)) > 0.3 || p.Hops.Mean > float64(p.Hops.Max) {
		t.Errorf("hops mean %g, max %d; want the mean over delivered messages", p.Hops.Mean, p.Hops.Max)
	}
	// Every latency is a whole number of femtoseconds: no binary noise
	// (8.5e-22 s for a message generated as the run stopped, 6.79999999999e-8
	// for 68 ns).
	lats := []float64{p.Latency.Min, p.Latency.Max, p.Latency.P50, p.Latency.P99}
	for _, b := range p.ByHops {
		lats = append(lats, b.Min, b.Max)
	}
	for _, l := range lats {
		if l != math.Round(l*1e15)/1e15 {
			t.Errorf("latency %v s is no whole number of femtoseconds", l)
		}
	}
}

func TestOfferedRefusesPhasesItCannotMeasureOrHold(t *testing.T) {
	// Issue 26: --measure 1ns gave "accepted 0.5000 mean 0s"; --measure
	// 1e9s ran unbounded.
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	_, err := Offered(context.Background(), spec, Options{Op: "uniform", Size: 32}, Load{Fraction: 0.1, Measure: 1e-9})
	var oe *OptionError
	// 32 bytes at 4 GB/s: 8 ns a message, three windows.
	if !errors.As(err, &oe) || oe.Option != "Measure" || !strings.Contains(err.Error(), "at least 24ns") {
		t.Errorf("--measure 1ns: err = %v, want an OptionError naming 24ns", err)
	}
	start := time.Now()
	_, err = Offered(context.Background(), spec, Options{Op: "uniform", Size: 32}, Load{Fraction: 0.1, Measure: 1e9})
	var tl *limits.TooLarge
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "messages") {
		t.Errorf("--measure 1e9s: err = %v, want the messages refused with their number", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refused after %v; want before running", d)
	}
}

// A point reports its progress as it runs: the simulated time grows
// towards a target no earlier than the measurement's end, the events grow,
// and the last report of each point says it is done.
func TestOfferedReportsProgress(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	loads := []Load{{Fraction: 0.3, Warmup: 10e-6, Measure: 100e-6}, {Fraction: 0.1, Warmup: 10e-6, Measure: 100e-6}}
	var mu sync.Mutex
	reports := make([][]PointProgress, len(loads))
	o := Options{Op: "uniform", Size: 32, Seed: 1, Workers: 2, PointProgress: func(i int, p PointProgress) {
		mu.Lock()
		defer mu.Unlock()
		reports[i] = append(reports[i], p)
	}}
	pts, err := OfferedCurve(context.Background(), spec, o, loads)
	if err != nil {
		t.Fatal(err)
	}
	for i, rs := range reports {
		if len(rs) < 3 {
			t.Fatalf("point %d: %d reports, want some as it runs (%d events) and one at its end", i, len(rs), pts[i].Events)
		}
		last := rs[len(rs)-1]
		if !last.Done || last.Events != pts[i].Events {
			t.Errorf("point %d: the last report is %+v, want done after %d events", i, last, pts[i].Events)
		}
		end := loads[i].Warmup + loads[i].Measure
		for k, p := range rs[:len(rs)-1] {
			switch {
			case p.Done:
				t.Errorf("point %d: report %d of %d says done", i, k, len(rs))
			case p.Now > p.Target || p.Target < end*(1-1e-9):
				t.Errorf("point %d: report %+v: simulated time past its target, or a target before the measurement's end %g s", i, p, end)
			case k > 0 && (p.Now < rs[k-1].Now || p.Events <= rs[k-1].Events):
				t.Errorf("point %d: report %+v after %+v", i, p, rs[k-1])
			}
		}
	}
}

// An offered load above the injection bandwidth is accepted, as BookSim
// accepts 1.2 flits a cycle (issue 27): the sources generate what was
// asked (offered within 5% of 1.2) and their queues grow, so the point
// saturates and accepts what the network carries, less than one
// processor's bandwidth each. A Bernoulli process cannot offer more than
// a message a flit cycle: 4-byte messages at 2 are refused, naming the
// largest load.
func TestOfferedLoadAboveInjectionIsAccepted(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	r := offered1(t, spec, Options{Op: "uniform", Size: 32, Seed: 1}, Load{Fraction: 1.2})
	if !near(r.Offered, 1.2, 0.05) || !r.Saturated || !(r.Accepted < 1) {
		t.Errorf("load 1.2: offered %g, accepted %g, saturated %v; want 1.2 offered, saturated, less than 1 accepted", r.Offered, r.Accepted, r.Saturated)
	}
	_, err := Offered(context.Background(), spec, Options{Op: "uniform", Size: 4, Seed: 1}, Load{Fraction: 2})
	var oe *OptionError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "a load of 1 here") {
		t.Errorf("4-byte messages at load 2 under Bernoulli: %v, want an OptionError naming the largest load, 1", err)
	}
	if _, err := Offered(context.Background(), spec, Options{Op: "uniform", Size: 32, Seed: 1}, Load{Fraction: MaxOverload + 1}); !errors.As(err, &oe) {
		t.Errorf("load %d: %v, want an OptionError", MaxOverload+1, err)
	}
}

// Uniform traffic with Load.Self addresses messages to their source too,
// as BookSim's uniform does (issue 27). On BookSim's 4×4 mesh a message to
// oneself crosses the injection channel, its own router and the ejection
// channel: 5·0 + 6 + 8 = 14 cycles (the zero-load 5H + 6 + S of
// docs/RUNTIME.md with H = 0), below the 19 of the nearest other
// processor; so the least latency is 14 cycles with Self and 19 without.
// Hotspot traffic, and processors that are routers themselves, refuse it.
func TestUniformSelfAddressed(t *testing.T) {
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	for _, self := range []bool{false, true} {
		r := offered1(t, spec, Options{Op: "uniform", Size: 32, Seed: 1}, Load{Fraction: 0.05, Self: self})
		want := 19e-9
		if self {
			want = 14e-9
		}
		if !near(r.Latency.Min, want, 1e-9) {
			t.Errorf("self %v: least latency %g, want %g", self, r.Latency.Min, want)
		}
	}
	// Transpose's diagonal (4 of 16 processors) sends only with Self, as
	// BookSim's does: the offered load is then the full 0.05, else 3/4 of
	// it; and those messages take the 14 cycles through their router.
	for _, self := range []bool{false, true} {
		r := offered1(t, spec, Options{Op: "transpose", Size: 32, Seed: 1}, Load{Fraction: 0.05, Self: self})
		// Without Self the nearest other is two hops away (5·2 + 6 + 8 =
		// 24 cycles).
		want, least := 0.75*0.05, 24e-9
		if self {
			want, least = 0.05, 14e-9
		}
		if !near(r.Offered, want, 0.2) || !near(r.Latency.Min, least, 1e-9) {
			t.Errorf("transpose, self %v: offered %g, least latency %g; want about %g and %g", self, r.Offered, r.Latency.Min, want, least)
		}
	}
	var oe *OptionError
	if _, err := Offered(context.Background(), spec, Options{Op: "hotspot", Size: 32, Seed: 1}, Load{Fraction: 0.05, Self: true}); !errors.As(err, &oe) {
		t.Errorf("hotspot with Self: %v, want an OptionError", err)
	}
	plain := basic(mustGen(t, "mesh", 4, 4), 1e-9, 4e9)
	if _, err := Offered(context.Background(), plain, Options{Op: "uniform", Size: 32, Seed: 1}, Load{Fraction: 0.05, Self: true}); !errors.As(err, &oe) || !strings.Contains(err.Error(), "nic = true") {
		t.Errorf("Self without routers: %v, want an OptionError asking for nic = true", err)
	}
}

func TestOfferedReusedMessagesGiveTheSameResults(t *testing.T) {
	// A point reuses its delivered messages' records for the next ones it
	// generates, unless a trace will read them all (Options.Trace): the
	// traced point, whose messages each have a record of their own as
	// every point's had before records were reused, is the reference.
	// The cases: below saturation; past it (marked messages left in
	// flight count at their ages); Poisson arrivals; a list whose
	// messages split into different numbers of parts (two channels: 1
	// byte is one part, 32 bytes two), so that a record is not always
	// reusable.
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	list := make(MessageList, 16)
	for r := range list {
		list[r] = []ListedMessage{{Dst: (r + 1) % 16, Bytes: 32}, {Dst: (r + 5) % 16, Bytes: 1}}
	}
	for _, c := range []struct {
		name string
		o    Options
		l    Load
	}{
		{"uniform 0.1", Options{Op: "uniform", Size: 32, Seed: 1}, Load{Fraction: 0.1}},
		{"uniform 0.6", Options{Op: "uniform", Size: 32, Seed: 1}, Load{Fraction: 0.6}},
		{"tornado poisson 0.2", Options{Op: "tornado", Size: 64, Seed: 2}, Load{Fraction: 0.2, Process: Poisson}},
		{"list, two channels", Options{Op: ListOp, Size: 1, Channels: 2, Seed: 3}, Load{Fraction: 0.1, List: list}},
	} {
		reused := offered1(t, spec, c.o, c.l)
		c.o.Trace = true
		kept := offered1(t, spec, c.o, c.l)
		if kept.Trace == nil || len(kept.Trace.Messages) <= kept.Marked {
			t.Fatalf("%s: the traced point kept no record of each message", c.name)
		}
		a, _ := json.Marshal(reused)
		b, _ := json.Marshal(kept)
		if string(a) != string(b) {
			t.Errorf("%s: with records reused\n%s\nwith every record kept\n%s", c.name, a, b)
		}
	}
}

func TestOfferedHoldsOnlyTheMessagesInFlight(t *testing.T) {
	// Uniform traffic at 0.1 on a 4×4 mesh generates 0.1 × 4 GB/s / 32 B
	// = 12.5 messages a µs a processor, 200 a µs in all; at a mean latency
	// of about 25 ns, 5 are in flight on average (Little's law). The
	// point's records are those of the messages in flight or queued at
	// once, not the thousands it generates.
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	opts := Options{Op: "uniform", Size: 32, Seed: 1}
	if err := checkOptions(&opts); err != nil {
		t.Fatal(err)
	}
	s, tr := simFor(t, spec, &opts)
	r, err := s.offered(context.Background(), tr, Load{Fraction: 0.1}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	inFlight := r.Offered * 16 * 4e9 / float64(tr.wireBytes(32)) * r.Latency.Mean
	if r.Saturated || r.Marked < 500 || inFlight > 10 {
		t.Fatalf("saturated %v, %d marked, %.3g in flight on average; want an unsaturated point with hundreds marked", r.Saturated, r.Marked, inFlight)
	}
	if held := len(s.msgs); float64(held) > 4*inFlight+10 {
		t.Errorf("%d message records held after %d marked (%.3g in flight on average); want no more than 4 times those in flight and 10", held, r.Marked, inFlight)
	}
}

func TestOfferedAllocatesNothingPerMessage(t *testing.T) {
	// A point ten times as long generates ten times the messages; with
	// their records reused what it allocates more is the marked
	// messages' latencies alone: 8 bytes each where the result sorts
	// them, and where the point keeps them a slice that grows by a
	// quarter at a time past 256 (Go's append: 8 / (1 − 0.8) = 40 bytes
	// allocated a latency over its growth), 48 bytes in all. A record of
	// its own a message took 152 bytes (message and part), itself grown
	// so, for every message generated, marked or not.
	spec := bookSimSpec(t, 1e-9, "mesh", 4, 4)
	o := Options{Op: "uniform", Size: 32, Seed: 1, Workers: 1}
	run := func(measure float64) (alloc uint64, marked int) {
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		r := offered1(t, spec, o, Load{Fraction: 0.1, Warmup: 3e-6, Measure: measure})
		goruntime.ReadMemStats(&after)
		if r.Saturated {
			t.Fatalf("measure %g: saturated", measure)
		}
		return after.TotalAlloc - before.TotalAlloc, r.Marked
	}
	a1, m1 := run(3e-6)
	a10, m10 := run(30e-6)
	if m10 < 9*m1 {
		t.Fatalf("%d and %d messages marked; want ten times as many in ten times the measurement", m1, m10)
	}
	if per := float64(a10-a1) / float64(m10-m1); per > 48 {
		t.Errorf("%.1f bytes allocated a marked message (%d → %d bytes for %d → %d marked); want at most the 48 its latency takes", per, a1, a10, m1, m10)
	}
}
