package validation

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/runtime"
)

// ---------------------------------------------------------------------------
// Seed 004: XK-XMP-64.

var table1 = []struct {
	dst  int
	name string
	ns   float64
}{
	{1, "on chip (0 → 1)", 70},
	{4, "off chip, 1 hop (0 → 4)", 200},
	{12, "off chip, 2 hops (0 → 12)", 290},
	{28, "off chip, 3 hops (0 → 28)", 390},
	{60, "off chip, 4 hops (0 → 60)", 480},
}

func xmp64Journeys(t *testing.T) section {
	m := load(t, "std:xmp64")
	var rows []row
	for _, j := range table1 {
		r := send(t, m, 0, j.dst, 0)
		rows = append(rows, check(t, row{
			Quantity: "journey " + j.name, Seed: fmt.Sprintf("%g ns", j.ns), SeedVal: j.ns,
			Value: r.Latency.Mean * 1e9, Unit: "ns", Tol: 0.05,
			Cmd: fmt.Sprintf("parasol sim std:xmp64 --op send --src 0 --dst %d --size 0", j.dst),
		}))
	}
	b := sim(t, m, runtime.Options{Op: "barrier", Size: 0})
	rows = append(rows, check(t, row{
		Quantity: "barrier makespan vs the estimate 2h_in + 4h_off (§3.3.1)", Seed: "940 ns", SeedVal: 940,
		Value: b.Makespan * 1e9, Unit: "ns", Tol: 0.05,
		Cmd: "parasol sim std:xmp64 --op barrier --size 0",
	}))
	rows = append(rows, check(t, row{
		Quantity: "barrier makespan vs the measured average (§3.3.2)", Seed: "990 ns (930–1100)", SeedVal: 990,
		Value: b.Makespan * 1e9, Unit: "ns",
		Cmd:  "parasol sim std:xmp64 --op barrier --size 0",
		Note: "not asserted: the measurement includes clock-synchronisation error (§3.3.2)",
	}))
	// The barrier as `parasol compare` runs it (empty messages whatever
	// --size says) must land where the model section's barrier does.
	spec, err := m.Spec("")
	if err != nil {
		t.Fatal(err)
	}
	c, err := eval.Compare(context.Background(), m, spec, "MPI.barrier", runtime.Options{Size: 4096, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rows = append(rows, check(t, row{
		Quantity: "MPI.barrier() simulated by compare vs the estimate (§3.3.1)", Seed: "940 ns", SeedVal: 940,
		Value: c.Simulated * 1e9, Unit: "ns", Tol: 0.05,
		Cmd: "parasol compare std:xmp64 MPI.barrier",
	}))
	return section{
		Title: "Seed 004: XK-XMP-64 journeys and barrier (Table 1, §3.3)",
		Intro: "std:xmp64 simulated (wormhole, e-cube routing); a journey is a message with no data from core 0: " +
			"the XS1 route header (3 tokens) and the END token that closes the route, as the barrier's messages are " +
			"(the seed gives no size; §3.3.1 sums Table 1's journeys as the barrier's messages). " +
			"Parasol value: the message latency (`latency.mean`, the receiver's check of the END token included) " +
			"or the makespan of the barrier (Algorithm 1, dimension exchange).",
		Rows: rows,
		Notes: "The machine's link parameters are derived from Table 1 itself (see the comment in " +
			"stdlib/machines/xmp64.machine): the first off-chip hop and the mean further-hop increment " +
			"(480 − 200)/3 = 93.3 ns, so the 2- and 3-hop journeys land at 293.3 and 386.7 ns " +
			"(+1.1%, −0.9%) while the table's increments are 90, 100, 90 ns. The barrier is simulated " +
			"as 6 rounds of neighbour exchanges (each waits for the previous round's message) and lands on " +
			"the estimate; the measured 990 ns is 5% above it. Data adds to a journey at the slowest link's " +
			fmt.Sprintf("token rate: `--size 4` takes %s ns on chip and %s ns one hop off chip.",
				num(send(t, m, 0, 1, 4).Latency.Mean*1e9), num(send(t, m, 0, 4, 4).Latency.Mean*1e9)),
	}
}

// peaks returns the centres of the local maxima of a histogram holding at
// least frac of all counts, and the bin width.
func peaks(h runtime.Histogram, frac float64) ([]float64, float64) {
	total := 0
	for _, c := range h.Counts {
		total += c
	}
	var out []float64
	n := len(h.Counts)
	for i, c := range h.Counts {
		if float64(c) < frac*float64(total) {
			continue
		}
		if i > 0 && h.Counts[i-1] > c || i+1 < n && h.Counts[i+1] >= c {
			continue
		}
		out = append(out, (h.Edges[i]+h.Edges[i+1])/2)
	}
	w := 0.0
	if n > 0 {
		w = (h.Edges[n] - h.Edges[0]) / float64(n)
	}
	return out, w
}

func xmp64Randperm(t *testing.T) section {
	m := load(t, "std:xmp64")
	runs := 1000
	if testing.Short() {
		runs = 200
	}
	r := sim(t, m, runtime.Options{Op: "randperm", Size: 0, Runs: runs, Seed: 1})
	ps, w := peaks(r.Histogram, 0.01)
	var rows []row
	for k, j := range table1 {
		// The mode is expected at the quiet-network journey of this many
		// chip hops (0 = on chip), as simulated; the seed column is Table 1.
		best := math.Inf(1)
		for _, p := range ps {
			if math.Abs(p*1e9-j.ns) < math.Abs(best-j.ns) {
				best = p * 1e9
			}
		}
		rows = append(rows, check(t, row{
			Quantity: fmt.Sprintf("randperm latency mode, %d chip hops", k), Seed: fmt.Sprintf("a mode near %g ns", j.ns),
			SeedVal: j.ns, Value: best, Unit: "ns", Tol: 1.5 * w * 1e9, Abs: true,
			Cmd: fmt.Sprintf("parasol sim std:xmp64 --op randperm --size 0 --runs %d", runs),
		}))
	}
	// Fig. 9's own 32-byte messages: the modes are separated by hop count
	// (Result.ByHops), each group's latency rising with its hops.
	r32 := sim(t, m, runtime.Options{Op: "randperm", Size: 32, Runs: runs, Seed: 1})
	_, w32 := peaks(r32.Histogram, 0.01)
	prev := 0.0
	for _, h := range r32.ByHops {
		mean := h.Mean * 1e9
		if mean <= prev {
			t.Errorf("randperm 32 B: mean latency %g ns at %d hops does not exceed %g ns at fewer hops", mean, h.Hops, prev)
		}
		prev = mean
		rows = append(rows, check(t, row{
			Quantity: fmt.Sprintf("randperm 32 B, %d hops (%d messages): mean latency", h.Hops, h.Messages),
			Seed:     "one mode per hop count", SeedVal: math.NaN(), Value: mean, Unit: "ns",
			Note: "asserted: rises with every hop",
			Cmd:  fmt.Sprintf("parasol sim std:xmp64 --op randperm --size 32 --runs %d (latency by hops)", runs),
		}))
	}
	return section{
		Title: "Seed 004: latency distribution of random permutations (Fig. 9)",
		Intro: fmt.Sprintf("std:xmp64, `randperm` (a new random permutation every run, all 64 cores sending at once), %d runs, "+
			"messages with no data (Table 1's journeys: route header and END token). Parasol value: the nearest local maximum of the simulated latency histogram "+
			"(32 bins of %.1f ns, peaks holding ≥ 1%% of the messages) to each quiet-network journey time; "+
			"tolerance 1.5 bins.", runs, w*1e9),
		Rows: rows,
		Notes: "The histogram has one mode per number of chip hops (0–4), each with a tail to the right: " +
			"a hop always takes at least its quiet time, contention only adds (seed 004 §4.4). " +
			"Seed 004's Fig. 9 uses 32-byte messages; with 32 bytes the serialisation " +
			fmt.Sprintf("(%s ns off chip: 36 tokens with header and END) ", num(evalNum(t, m, "(32B + frame) * tw_link")*1e9)) +
			"dwarfs the 93 ns per further hop, so the 32-bin histogram over [min, max] " +
			fmt.Sprintf("(about %s ns per bin) ", num(w32*1e9)) +
			"blurs the modes; the simulation's latency by hop count (`by_hops`, the last rows) separates them, " +
			"each hop count's group rising by roughly the per-hop increment. " +
			"`parasol sim std:xmp64 --op randperm --size 32 --runs 1000` prints both.",
	}
}

// ---------------------------------------------------------------------------
// Seed 000: H1/C104 protocol on std:c104-chain.

const (
	c104h     = 3.0
	c104b     = 32.0
	c104alpha = 100e-9
	c104beta  = 200e-9
	c104gamma = 500e-9
	c104delta = 1e-6
)

func eq1(s int) float64 {
	return math.Max(c104beta+(c104h+c104b+1)*c104alpha, 2*c104beta+(2*c104h+1)*c104alpha+2*float64(s)*c104delta)
}
func eq3(n, s int) float64 { return c104gamma + float64(n)/c104b*eq1(s) }
func eq4(s int) float64 {
	return (2*c104beta + 2*float64(s)*c104delta + (2*c104h+1)*c104alpha) / (c104beta + (c104h+c104b+1)*c104alpha)
}
func eq5(n, s, c int) float64 {
	tp := c104beta + (c104h+c104b+1)*c104alpha
	rt := 2*c104beta + (2*c104h+1)*c104alpha + 2*float64(s)*c104delta
	if float64(c) < eq4(s) {
		return float64(c)*c104gamma + float64(n)/(float64(c)*c104b)*rt + float64(c-1)*tp
	}
	return float64(c)*c104gamma + float64(n)/c104b*tp
}

// chain sets up seed 000's scenario on std:c104-chain: s switches, and a
// destination that is ready when the first packet arrives (§2), its input
// set-up done beforehand, so the receiver's per-message cost (recv_cpu,
// which the simulator charges when a message is in) is not on the path.
func chain(t *testing.T, s int) (sets []string) {
	return []string{fmt.Sprintf("s=%d", s), "recv_cpu=0s"}
}

func c104Eq3(t *testing.T) section {
	var rows []row
	for s := 0; s <= 10; s++ {
		m := load(t, "std:c104-chain", chain(t, s)...)
		for _, n := range []int{32, 64, 128, 256, 512, 1024, 2048, 4096} {
			r := send(t, m, 0, 1, n)
			want := eq3(n, s)
			mr := row{
				Quantity: fmt.Sprintf("s = %d, n = %d: makespan", s, n), Seed: fmt.Sprintf("%.4g us", want*1e6), SeedVal: want * 1e6,
				Value: r.Makespan * 1e6, Unit: "us", Tol: 0.02,
				Cmd: fmt.Sprintf("parasol sim std:c104-chain --set s=%d --set recv_cpu=0s --op send --size %d", s, n),
			}
			if n < 512 {
				mr.Tol, mr.Note = 0, "not asserted below 512 B: the makespan adds the last packet's journey (see below)"
			}
			ms := check(t, mr)
			st := check(t, row{
				Quantity: fmt.Sprintf("s = %d, n = %d: sender time", s, n), Seed: fmt.Sprintf("%.4g us", want*1e6), SeedVal: want * 1e6,
				Value: r.SendTime.Mean * 1e6, Unit: "us", Tol: 1e-6,
				Cmd: fmt.Sprintf("parasol sim std:c104-chain --set s=%d --set recv_cpu=0s --op send --size %d", s, n),
			})
			if n == 4096 || n == 32 || (n == 512 && s%5 == 0) {
				rows = append(rows, ms)
				if n == 32 {
					rows = append(rows, st)
				}
			}
		}
	}
	return section{
		Title: "Seed 000: one channel, Eq. 3 (std:c104-chain, s = 0..10)",
		Intro: "Two H1 processors through a chain of s C104 switches, seed 000's parameters (h = 3, b = 32, " +
			"α = 100 ns, β = 200 ns, γ = 500 ns, δ = 1 µs). The simulation runs the protocol: packets of b bytes " +
			"with header and EOP token, one acknowledgement of h + 1 bytes per packet generated when the header " +
			"arrives, window 1, β per packet at the sender and before each acknowledgement, δ per switch. " +
			"The destination is ready when the first packet arrives (seed 000 §2), so the runs set the receiver's " +
			"per-message cost `recv_cpu` (γ, charged by the simulator when a message is in) to 0. " +
			"Seed value: Eq. 3 computed in Go. Parasol value: `makespan` (until the last event, acknowledgement " +
			"included) and `send_time.mean` (as the sender sees it, Eq. 3's own viewpoint). The test checks every " +
			"s = 0..10 and n = 32, 64, …, 4096 (88 cases, both figures); the table shows a selection.",
		Rows: rows,
		Notes: "Eq. 3 is the cost \"as measured by the source processor\" (seed 000 §3), and the simulated " +
			"sender time matches it exactly for every n and s. The makespan also contains the last packet's " +
			"journey, which Eq. 3 leaves out. For s = 1 and 2 the last packet's tail reaches the destination after " +
			"the sender has seen its acknowledgement (the acknowledgement starts when the header arrives), adding sδ " +
			"once: +23% (s = 1) and +12.5% (s = 2) for a one-packet message, under 2% from 512 bytes on, which is " +
			"why the makespan is asserted from 512 bytes. For s = 0 the output is the bottleneck and for s ≥ 3 the " +
			"acknowledgement round trip is, so the last event is the sender's and the makespan equals Eq. 3 for " +
			"every n.",
	}
}

func c104Eq5(t *testing.T) section {
	var rows []row
	for _, s := range []int{0, 2, 6, 10} {
		m := load(t, "std:c104-chain", chain(t, s)...)
		for c := 1; c <= 8; c++ {
			for _, n := range []int{4096, 8192} {
				r := sim(t, m, runtime.Options{Op: "send", Size: n, Channels: c, Src: runtime.Node(0), Dst: runtime.Node(1)})
				want := eq5(n, s, c)
				xr := row{
					Quantity: fmt.Sprintf("s = %d, n = %d, c = %d: makespan", s, n, c), Seed: fmt.Sprintf("%.4g us", want*1e6),
					SeedVal: want * 1e6, Value: r.Makespan * 1e6, Unit: "us", Tol: 0.03,
					Cmd: fmt.Sprintf("parasol sim std:c104-chain --set s=%d --set recv_cpu=0s --op send --size %d --channels %d", s, n, c),
				}
				if s > 6 {
					xr.Tol = 0.04 // the last acknowledgement's round trip, 2sδ, grows with s
				}
				x := check(t, xr)
				if s == 6 && n == 4096 || s == 10 && n == 8192 && c%2 == 0 {
					rows = append(rows, x)
				}
			}
		}
	}
	return section{
		Title: "Seed 000: multi-channel messages, Eq. 5",
		Intro: "std:c104-chain with `--channels c`: the message is split over c channels on the same link, " +
			"each with its own window of one packet; the H1 initialises the channels one after another (γ each); " +
			"the destination is ready, as for Eq. 3 (`recv_cpu` = 0). " +
			"Seed value: Eq. 5 computed in Go. The test checks s = 0, 2, 6, 10, c = 1..8, n = 4096 and 8192 " +
			"(64 cases) within 3%; the table shows s = 6, n = 4096 and s = 10, n = 8192. Beyond the issue's s = 6, the s = 10 cases are " +
			"asserted within 4% (n = 4096, c = 6 is +3.02%: the final round trip 2sδ is 20 µs there).",
		Rows: rows,
		Notes: "The residual has two sources, of opposite sign. Eq. 5 charges all c channel initialisations " +
			"(cγ) before any packet moves, but the H1's integer unit and VCP work in parallel, so the simulated " +
			"packets of the first channels are already moving while the later channels are being set up " +
			"(the simulation is faster by up to (c−1)γ). Eq. 5 also leaves out the wait for the last " +
			"acknowledgement and the last packet's journey, which the makespan contains (slower by up to one " +
			"round trip 2β + (2h+1)α + 2sδ). Near c = Eq. 4 both branches of Eq. 5 are optimistic " +
			"about channels that interfere on the link, and FIFO arbitration adds a little queueing.",
	}
}

func c104Eq4(t *testing.T) section {
	var rows []row
	for _, s := range []int{2, 6, 10} {
		m := load(t, "std:c104-chain", chain(t, s)...)
		const n = 8192
		var ms []float64
		best := math.Inf(1)
		for c := 1; c <= 10; c++ {
			r := sim(t, m, runtime.Options{Op: "send", Size: n, Channels: c, Src: runtime.Node(0), Dst: runtime.Node(1)})
			// the link time without the channel set-ups, which grow with c
			x := r.Makespan - float64(c)*c104gamma
			ms = append(ms, x)
			best = math.Min(best, x)
		}
		csat := 0
		for i, x := range ms {
			if x <= 1.01*best {
				csat = i + 1
				break
			}
		}
		want := math.Ceil(eq4(s))
		rows = append(rows, check(t, row{
			Quantity: fmt.Sprintf("s = %d: smallest saturating c (Eq. 4 bound %.3g)", s, eq4(s)), Seed: fmt.Sprintf("%g", want),
			SeedVal: want, Value: float64(csat), Tol: 0.5, Abs: true,
			Cmd: fmt.Sprintf("parasol sim std:c104-chain --set s=%d --set recv_cpu=0s --op send --size 8192 --channels C, C = 1..10", s),
		}))
	}
	return section{
		Title: "Seed 000: channels needed to saturate a link, Eq. 4",
		Intro: "For c = 1..10 channels, an 8 KiB message on std:c104-chain; the simulated makespan minus the c channel " +
			"set-ups (cγ) is the time the link needs. Parasol value: the smallest c within 1% of the best. " +
			"Seed value: ⌈Eq. 4⌉ computed in Go. Seed 000 §4: \"about 3 channels\" at s = 6 (Eq. 4 gives 3.45).",
		Rows: rows,
	}
}

// c104Eq5Intercept fits seed 000 §6's k4 + k5 n (parasol fit k45) to
// simulated multi-channel sends, with the sender's wait for the final
// acknowledgement, which the simulation reports apart (send_time's
// final_ack), taken off: what is left is the time until the sender's last
// transmission, Eq. 5's saturated branch, cγ + (n/b)(β + (h+b+1)α). With
// channel_setup = serial the c channels are set up before the first
// transmits, as Eq. 5 charges them, and k4 is its cγ; by default
// (overlapped) the first transmits while the others are set up, as §4 says
// the H1 may, and k4 is γ.
func c104Eq5Intercept(t *testing.T) section {
	var rows []row
	tp := c104beta + (c104h+c104b+1)*c104alpha
	for _, setup := range []string{"serial", "overlapped"} {
		for _, sc := range [][2]int{{2, 2}, {6, 4}, {10, 6}} {
			s, c := sc[0], sc[1]
			m := load(t, "std:c104-chain", append(chain(t, s), "processor(h1).channel_setup="+setup)...)
			csv := "size,time\n"
			var ack float64
			for n := 1024; n <= 16384; n *= 2 {
				r := sim(t, m, runtime.Options{Op: "send", Size: n, Channels: c, Src: runtime.Node(0), Dst: runtime.Node(1)})
				csv += fmt.Sprintf("%d,%.17g\n", n, r.SendTime.Mean-r.SendTime.FinalAck)
				ack = r.SendTime.FinalAck
			}
			md, err := fit.Lookup("k45")
			if err != nil {
				t.Fatal(err)
			}
			p, err := md.Problem()
			if err != nil {
				t.Fatal(err)
			}
			tb, err := fit.Read("sends.csv", []byte(csv))
			if err != nil {
				t.Fatal(err)
			}
			res, err := fit.Fit(p, tb)
			if err != nil {
				t.Fatal(err)
			}
			k := map[string]float64{}
			for _, q := range res.Params {
				k[q.Name] = q.Value
			}
			set := ""
			if setup == "serial" {
				set = " --set 'processor(h1).channel_setup=serial'"
			}
			cmd := fmt.Sprintf("parasol sim --json std:c104-chain --set s=%d --set recv_cpu=0s%s --op send --size N --channels %d, N = 1024..16384; "+
				"time = send_time.mean − send_time.final_ack; parasol fit k45", s, set, c)
			rt := 2*c104beta + (2*c104h+1)*c104alpha + 2*float64(s)*c104delta
			k4 := row{Quantity: fmt.Sprintf("%s set-up, s = %d, c = %d: k4", setup, s, c), Seed: fmt.Sprintf("%.4g us (cγ)", float64(c)*c104gamma*1e6),
				SeedVal: float64(c) * c104gamma * 1e6, Value: k["k4"] * 1e6, Unit: "us", Tol: 0.01, Cmd: cmd}
			if setup == "overlapped" {
				k4.Seed, k4.SeedVal = fmt.Sprintf("%.4g us (γ)", c104gamma*1e6), c104gamma*1e6
				k4.Note = fmt.Sprintf("Eq. 5 charges cγ = %.4g us; the other c − 1 set-ups overlap the transmission (§4)", float64(c)*c104gamma*1e6)
			}
			rows = append(rows,
				check(t, row{Quantity: fmt.Sprintf("%s set-up, s = %d, c = %d: k5", setup, s, c), Seed: fmt.Sprintf("%.5g us/B", tp/c104b*1e6),
					SeedVal: tp / c104b * 1e6, Value: k["k5"] * 1e6, Unit: "us/B", Tol: 0.001, Cmd: cmd}),
				check(t, k4),
				check(t, row{Quantity: fmt.Sprintf("%s set-up, s = %d, c = %d: final_ack", setup, s, c), Seed: fmt.Sprintf("%.4g us", (rt-tp)*1e6),
					SeedVal: (rt - tp) * 1e6, Value: ack * 1e6, Unit: "us", Tol: 0.01,
					Cmd: fmt.Sprintf("parasol sim --json std:c104-chain --set s=%d --set recv_cpu=0s%s --op send --size 16384 --channels %d (send_time.final_ack)", s, set, c)}))
		}
	}
	return section{
		Title: "Seed 000: Eq. 5's intercept, k4 + k5 n fitted to simulated multi-channel sends",
		Intro: "Seed 000 §6 proposes T = k4 + k5 n for multi-channel sends; Eq. 5's saturated branch gives k4 = cγ and " +
			"k5 = (β + (h+b+1)α)/b. The simulated sender time (`send_time.mean`) also waits for the last acknowledgement, " +
			"which Eq. 5 leaves out; the simulation reports that wait apart (`send_time.final_ack`, and \"final ack\" in " +
			"sim's text), so the sends less it are fitted with `parasol fit k45` (n = 1, 2, 4, 8, 16 KiB; c at or above " +
			"Eq. 4's channels, so the link is saturated). Seed values: k4 = cγ (γ where the set-ups overlap), k5 and the " +
			"final wait, the acknowledgement's round trip 2β + (2h+1)α + 2sδ less the last packet's β + (h+b+1)α, computed in Go. " +
			"Seed 000 §4 allows both set-ups: \"communication may take place on the first channels while the remaining channels " +
			"are still being initialised. In this paper we have included the full cost of the channel initialisations in the " +
			"models.\" The processor field `channel_setup = serial` sets every channel up before the first transmits, as Eq. 5 " +
			"charges; the default, `overlapped`, transmits on each channel once its own set-up is done, as the H1 may.",
		Rows: rows,
		Notes: "k4, k5 and the final wait come out exactly under both set-ups: cγ with channel_setup = serial, γ by " +
			"default, where the H1's integer unit initialises the later channels while the VCP transmits on the first. " +
			"The default stays overlapped: it is what the hardware does, and the rows of Eq. 4 and Eq. 5's makespans " +
			"above were validated with it (changing it would move them). Before the final wait was reported apart, the fitted intercept also held it " +
			"(9.8 µs at s = 6, c = 4).",
	}
}

// c104ShortChannels: seed 000 §4's library opens all c channels whatever
// the message, γ each, so for n ≤ b one channel is the cheapest.
func c104ShortChannels(t *testing.T) section {
	var rows []row
	m := load(t, "std:c104-chain", "s=6")
	for _, n := range []int{8, 32} {
		one := sim(t, m, runtime.Options{Op: "send", Size: n, Channels: 1, Src: runtime.Node(0), Dst: runtime.Node(1)}).Makespan
		for _, c := range []int{2, 4} {
			more := sim(t, m, runtime.Options{Op: "send", Size: n, Channels: c, Src: runtime.Node(0), Dst: runtime.Node(1)}).Makespan
			extra := float64(c-1) * c104gamma
			r := row{Quantity: fmt.Sprintf("s = 6, n = %d B: makespan(c = %d) − makespan(c = 1)", n, c),
				Seed: fmt.Sprintf("≥ %.3g us", extra*1e6), SeedVal: math.NaN(), Value: (more - one) * 1e6, Unit: "us",
				Cmd:  fmt.Sprintf("parasol sim --json std:c104-chain --set s=6 --size %d --channels C, C = 1, %d", n, c),
				Note: "asserted as a lower bound: (c − 1)γ"}
			if more-one < extra*(1-1e-9) {
				t.Errorf("%s: %.4g us, want at least (c − 1)γ = %.4g us", r.Quantity, r.Value, extra*1e6)
			}
			rows = append(rows, check(t, r))
		}
	}
	return section{
		Title: "Seed 000 §4: extra channels for short messages",
		Intro: "A library that splits every message over c channels (seed 000 §4 suggests a fixed c = 4) opens all of " +
			"them, γ each, even for a message of fewer packets than channels; each channel carries a share of the bytes. " +
			"So one channel is cheaper than several for n ≤ b = 32 B: the simulated makespan grows by at least (c − 1)γ " +
			"(more, as every share's packet carries its own header and EOP token on the one link). Before issue 27 the " +
			"message used only as many channels as it had packets, and 32 B took 13.6 µs on 1 and on 4 channels.",
		Rows: rows,
	}
}

// ---------------------------------------------------------------------------
// Seed 003: TINY, iPSC/2, iPSC/1, Ncube latency models.

// fitLatency simulates sends over h = hs links with sizes ls and fits
// a + b h + c l + d l h (or, with one h, T0 + R l).
func fitLatency(t *testing.T, m interface{}, spec string, sets []string, hs, ls []int, dstOf func(h int) int) []float64 {
	mm := load(t, spec, sets...)
	var X [][]float64
	var y []float64
	for _, h := range hs {
		for _, l := range ls {
			r := send(t, mm, 0, dstOf(h), l)
			if r.Hops.Max != h {
				t.Fatalf("%s: 0 -> %d is %d hops, want %d", spec, dstOf(h), r.Hops.Max, h)
			}
			if len(hs) == 1 {
				X = append(X, []float64{1, float64(l)})
			} else {
				X = append(X, []float64{1, float64(h), float64(l), float64(l * h)})
			}
			y = append(y, r.Latency.Mean*1e6) // µs
		}
	}
	return leastSquares(X, y)
}

func steps(from, to, step int) []int {
	var out []int
	for l := from; l <= to; l += step {
		out = append(out, l)
	}
	return out
}

func hcDst(h int) int    { return 1<<h - 1 } // 0 -> 2^h - 1 is h hops on a hypercube
func chainDst(h int) int { return h }

func tinyTable34(t *testing.T) (section, []float64) {
	var rows []row
	var fit20 []float64
	for _, col := range []struct {
		link       string
		a, b, c, d float64
	}{{"20Mbit/s", 30.5, 24.3, 0, 0.71}, {"10Mbit/s", 30.5, 30.0, 0, 1.25}} {
		sets := []string{"link=" + col.link}
		f := fitLatency(t, nil, "std:tiny-t800", sets, steps(1, 8, 1), steps(0, 4096, 256), chainDst)
		if col.link == "20Mbit/s" {
			fit20 = f
		}
		cmd := fmt.Sprintf("parasol sim std:tiny-t800 --set link=%s --op send --src 0 --dst H --size L", col.link)
		for i, q := range []struct {
			name string
			seed float64
			unit string
		}{{"a", col.a, "us"}, {"b", col.b, "us"}, {"c", col.c, "us/B"}, {"d", col.d, "us/B"}} {
			r := row{Quantity: fmt.Sprintf("%s links: %s", col.link, q.name), Seed: fmt.Sprintf("%g %s", q.seed, q.unit),
				SeedVal: q.seed, Value: f[i], Unit: q.unit, Tol: 0.03, Cmd: cmd + ", H = 1..8, L = 0..4096 step 256; least squares"}
			if q.seed == 0 {
				r.Tol, r.Abs = 0.005, true // the table prints 0.00
			}
			rows = append(rows, check(t, r))
		}
	}
	return section{
		Title: "Seed 003: TINY quiet-network latency, Table 3.4 (std:tiny-t800)",
		Intro: "T800 chain of 16 running TINY's software store-and-forward router. 264 simulated sends per column " +
			"(h = 1..8 links, l = 0..4096 bytes in steps of 256) fitted by least squares to a + b h + c l + d l h. " +
			"`--set link=10Mbit/s` gives the second column.",
		Rows: rows,
		Notes: "The machine derives its per-byte and per-hop costs from the two columns of Table 3.4 (a fixed part " +
			"plus a part proportional to the bit time 1/link: 10.8 bits per byte and a 114-bit header; see " +
			"stdlib/machines/tiny-t800.machine). The simulated latency is exactly bilinear in l and h " +
			"(store and forward, software routing at every intermediate processor), so the fit recovers the table " +
			"to rounding.",
	}, fit20
}

func ipsc2Table35(t *testing.T) section {
	var rows []row
	for _, col := range []struct {
		name       string
		ls         []int
		a, b, c, d float64
	}{
		{"l < 100 B", steps(0, 99, 9), 367, 10.2, 0.05, 0},
		{"l > 100 B", steps(100, 4096, 444), 670.6, 30.0, 0.09, 0},
	} {
		f := fitLatency(t, nil, "std:ipsc2", nil, steps(1, 6, 1), col.ls, hcDst)
		cmd := fmt.Sprintf("parasol sim std:ipsc2 --op send --src 0 --dst 2^H-1 --size L, H = 1..6, L = %d..%d; least squares",
			col.ls[0], col.ls[len(col.ls)-1])
		for i, q := range []struct {
			name string
			seed float64
			unit string
		}{{"a", col.a, "us"}, {"b", col.b, "us"}, {"c", col.c, "us/B"}, {"d", col.d, "us/B"}} {
			r := row{Quantity: fmt.Sprintf("%s: %s", col.name, q.name), Seed: fmt.Sprintf("%g %s", q.seed, q.unit),
				SeedVal: q.seed, Value: f[i], Unit: q.unit, Tol: 0.03, Cmd: cmd}
			if q.seed == 0 {
				r.Tol, r.Abs = 0.005, true
			}
			rows = append(rows, check(t, r))
		}
	}
	m := load(t, "std:ipsc2")
	want := 670.6 + 4*30.0 + 150*0.09
	rows = append(rows, check(t, row{Quantity: "l = 150 B, h = 4: latency (no --set)", Seed: fmt.Sprintf("%.4g us", want), SeedVal: want,
		Value: send(t, m, 0, 15, 150).Latency.Mean * 1e6, Unit: "us", Tol: 0.02,
		Cmd: "parasol compare --json std:ipsc2 MPI.send --size 150 --dst 15 (\"simulated\")"}))
	return section{
		Title: "Seed 003: iPSC/2 quiet-network latency, Table 3.5 (std:ipsc2)",
		Intro: "Circuit-switched 64-node hypercube: a probe reserves the path, the confirmation returns, then the " +
			"message streams. Sends from node 0 over h = 1..6 links, fitted to a + b h + c l + d l h; " +
			"NX/2's protocol follows the message size (seed 003 §3.5.3: asynchronous below 100 bytes, synchronous " +
			"from 100 on): the machine's `message_size`, which sim, compare and sweep set to the size they " +
			"simulate, chooses the column, so no `--set` is needed (`--set sync=true` or `false` still forces one). " +
			"The last row is issue 27's contract: one 150-byte message over h = 4 links against a + 4b + 150c " +
			"of the long column.",
		Rows: rows,
		Notes: "d = 0 comes out of the simulation (circuit switching pays l/bandwidth once, whatever h), as the " +
			"seed explains. The per-hop b is three latencies (probe, confirmation, data), so the machine's link " +
			"latency is b/3.",
	}
}

func table36(t *testing.T, tiny []float64) section {
	var rows []row
	add := func(name, spec string, sets []string, t0, rinf float64, fitted []float64, cmd, note string, tol float64) {
		rows = append(rows, check(t, row{Quantity: name + ": T0", Seed: fmt.Sprintf("%g us", t0), SeedVal: t0,
			Value: fitted[0], Unit: "us", Tol: tol, Cmd: cmd, Note: note}))
		rows = append(rows, check(t, row{Quantity: name + ": R∞", Seed: fmt.Sprintf("%g us/B", rinf), SeedVal: rinf,
			Value: fitted[1], Unit: "us/B", Tol: 0.03, Cmd: cmd}))
	}
	// TINY: T0 = a + b and R∞ = c + d of the Table 3.4 fit (the seed's definition).
	add("TINY", "std:tiny-t800", nil, 54.8, 0.71, []float64{tiny[0] + tiny[1], tiny[2] + tiny[3]},
		"from the Table 3.4 fit above: T0 = a + b, R∞ = c + d", "", 0.03)
	short := steps(0, 99, 9)
	f := fitLatency(t, nil, "std:ipsc2", nil, []int{1}, short, hcDst)
	add("iPSC/2", "std:ipsc2", nil, 350, 0.05, f, "parasol sim std:ipsc2 --op send --src 0 --dst 1 --size L, L = 0..99; least squares",
		"not asserted: Table 3.6 quotes [BR89]; the seed's own Table 3.5 (which the machine follows) gives a + b = 377.2 us", 0)
	f = fitLatency(t, nil, "std:ipsc1", nil, []int{1}, short, hcDst)
	add("iPSC/1", "std:ipsc1", nil, 1000, 1.0, f, "parasol sim std:ipsc1 --op send --src 0 --dst 1 --size L, L = 0..99; least squares", "", 0.03)
	f = fitLatency(t, nil, "std:ncube", nil, []int{1}, short, hcDst)
	add("Ncube", "std:ncube", nil, 446, 2.5, f, "parasol sim std:ncube --op send --src 0 --dst 1 --size L, L = 0..99; least squares", "", 0.03)
	return section{
		Title: "Seed 003: neighbour latencies T0 + l R∞, Table 3.6",
		Intro: "Neighbour sends (one link), messages of fewer than 100 bytes as in the table, fitted to T0 + l R∞.",
		Rows:  rows,
		Notes: "The iPSC/1 and Ncube machines are calibrated on this table alone (their overheads sum to T0, their " +
			"links run at 1/R∞); the seeds give no per-hop figures for them, so their through-routing cost is an " +
			"assumption (one start-up per intermediate node, store and forward). The iPSC/2 row shows that the " +
			"seed's two tables disagree: Table 3.5 (measured by the author) gives T0 = a + b = 367 + 10.2 = 377.2 us, " +
			"Table 3.6 (quoted from [BR89]) 350 us; the seed calls them \"in general agreement\".",
	}
}

// ---------------------------------------------------------------------------
// Seed 003 Tables 3.1–3.3, cyclic (shortest-path) rows, by all-to-all.

type tableRow struct {
	table, family string
	p             int
	mu, muSE      float64
	d, dSE        float64
	lp, lpSE      float64
	ll, llSE      float64
	bad           string // why μ and D are not compared
}

// The cyclic rows of Tables 3.1–3.3 (copied from seed 003 as
// runtime/acyclic's tests hold them).
var cyclicRows = []tableRow{
	{"3.1", "double ring", 16, 4, 0, 8, 0, 52.0, 0.4, 18.0, 0, ""},
	{"3.1", "double ring", 64, 16, 0, 32, 0, 965, 2, 260, 1, ""},
	{"3.1", "double ring", 256, 28, 0, 64, 0, 16138, 1, 4100, 1,
		"the row contradicts its own definition: a ring of 256 processors has μ = 64 and D = 128; the row's own L_p and L_l are those of a 256-ring"},
	{"3.2", "torus", 16, 2, 0, 4, 0, 18.5, 0.2, 10.8, 0.2, ""},
	{"3.2", "torus", 64, 4, 0, 8, 0, 200.5, 0.8, 71.0, 0.6, ""},
	{"3.2", "torus", 256, 8, 0, 16, 0, 1806, 1, 523, 1, ""},
	{"3.3", "hamiltonian", 16, 1.85, 0.01, 3.25, 0.05, 19.5, 1.2, 12.5, 0.7, ""},
	{"3.3", "hamiltonian", 64, 3.13, 0.02, 5.75, 0.25, 194, 7, 83, 5, ""},
	{"3.3", "hamiltonian", 256, 4.38, 0.01, 7.0, 0.13, 1110, 20, 393, 4, ""},
}

func pm(v, se float64) string {
	if se == 0 {
		return num(v)
	}
	return num(v) + " ± " + num(se)
}

func cyclicTables(t *testing.T) section {
	return tablesSection(t, cyclicRows, "", 0.08)
}

// The acyclic (primed) rows of Tables 3.1–3.3, μ′, D′, L′_p, L′_l (copied
// from seed 003 as runtime/acyclic's tests hold them).
var acyclicRows = []tableRow{
	{"3.1", "double ring", 16, 4, 0, 8, 0, 53.8, 0.2, 31.0, 0, ""},
	{"3.1", "double ring", 64, 16, 0, 32, 0, 979, 2, 507, 5, ""},
	{"3.1", "double ring", 256, 28, 0, 64, 0, 16197, 2, 8166, 2,
		"the row contradicts its own definition: a ring of 256 processors has μ = 64 and D = 128; the row's own L′_p and L′_l are those of a 256-ring"},
	{"3.2", "torus", 16, 2, 0, 4, 0, 33.3, 0.5, 18.3, 0.5, ""},
	{"3.2", "torus", 64, 4.44, 0, 13, 0, 783, 2, 330, 2, ""},
	{"3.2", "torus", 256, 9.27, 0, 29, 0, 13636, 3, 6684, 2, ""},
	{"3.3", "hamiltonian", 16, 1.97, 0.02, 4.3, 0.3, 34, 2, 19, 1, ""},
	{"3.3", "hamiltonian", 64, 3.73, 0.03, 8.3, 0.3, 660, 40, 240, 10, ""},
	{"3.3", "hamiltonian", 256, 5.71, 0.01, 11.0, 0.3, 11700, 200, 3640, 100, ""},
}

func acyclicTables(t *testing.T) section {
	sec := tablesSection(t, acyclicRows, "acyclic-improved", 0.25)
	sec.Title = "Seed 003: acyclic routing on the same graphs, Tables 3.1–3.3 (primed rows)"
	sec.Intro = "The same all-to-all runs as above with `--routing acyclic-improved` (TINY's acyclic routing " +
		"with the improvement rule C2, seed 003 §2.4.4 and §3.4.2; a double ring's two links are the ordered " +
		"components of one link, rule C′): μ′, D′, L′_p, L′_l. μ′ within 1% on the regular graphs (three " +
		"standard errors plus 3% on random graphs), D′ within half a hop (plus 10% on random graphs), loads " +
		"within 25% — see below."
	sec.Notes = "Acyclic routing keeps μ and D natural on double rings (the two links are components of one " +
		"link) and on the 4×4 torus, and lengthens paths on larger tori (+11% at 8×8, +16% at 16×16) and random " +
		"graphs (+30% at 256 nodes), as seed 003 §3.4.3 reports. The colouring labels a spanning tree in link " +
		"order, so which paths grow depends on how links are numbered: the runtime numbers them node by node " +
		"(as the seed enumerates a processor's links), which gives the tables' μ′ and D′ on the tori. The loads " +
		"also depend on which of several allowed minimal links each message takes; the seed's time-step " +
		"simulation and this packet simulation choose differently (shortest queue, ties at random), so the loads " +
		"agree less closely than the cyclic rows (the largest differences are on the smallest graphs, where one " +
		"message more or less is 3–5%). docs/ACYCLIC.md reproduces the primed rows at graph level with the " +
		"seed's own time-step model (`go test -run TestTables ./runtime/acyclic`).\n"
	return sec
}

// tablesSection simulates all-to-all on the graphs of Tables 3.1–3.3 with a
// routing ("" = the machine's own) and compares μ, D, L_p, L_l with the rows.
func tablesSection(t *testing.T, table []tableRow, routing string, loadTol float64) section {
	var rows []row
	for _, tr := range table {
		if tr.p == 256 && testing.Short() {
			continue
		}
		var file, cmd string
		var sets [][]string
		runs := 3
		switch tr.family {
		case "double ring":
			file = "testdata/doublering.machine"
			sets = [][]string{{fmt.Sprintf("n=%d", tr.p)}}
			cmd = fmt.Sprintf("parasol sim validation/testdata/doublering.machine --set n=%d --op alltoall --runs %%d", tr.p)
		case "torus":
			k := int(math.Sqrt(float64(tr.p)))
			file = "testdata/torus.machine"
			sets = [][]string{{fmt.Sprintf("k=%d", k)}}
			cmd = fmt.Sprintf("parasol sim validation/testdata/torus.machine --set k=%d --op alltoall --runs %%d", k)
		case "hamiltonian":
			file = "testdata/hamiltonian.machine"
			graphs := 10
			if tr.p == 256 {
				graphs = 4
			}
			for g := 1; g <= graphs; g++ {
				sets = append(sets, []string{fmt.Sprintf("n=%d", tr.p), fmt.Sprintf("g=%d", g)})
			}
			cmd = fmt.Sprintf("parasol sim validation/testdata/hamiltonian.machine --set n=%d --set g=G --op alltoall --runs %%d, G = 1..%d", tr.p, graphs)
		}
		if tr.p == 256 || len(sets) > 1 {
			runs = 1
		}
		cmd = fmt.Sprintf(cmd, runs)
		if routing != "" {
			cmd = strings.Replace(cmd, "--op alltoall", "--op alltoall --routing "+routing, 1)
		}
		var mu, d, lp, ll float64
		for _, s := range sets {
			m := load(t, file, s...)
			r := sim(t, m, runtime.Options{Op: "alltoall", Size: 1000, Runs: runs, Seed: 1, Routing: routing})
			P := float64(tr.p)
			mu += r.Hops.Mean * (P - 1) / P // the seed's μ counts the P self pairs as 0
			d += float64(r.Hops.Max)
			lp += r.ProcLoadAvg
			ll += r.LinkLoadAvg
		}
		k := float64(len(sets))
		mu, d, lp, ll = mu/k, d/k, lp/k, ll/k
		name := fmt.Sprintf("%s %s P = %d", tr.table, tr.family, tr.p)
		prime := ""
		if routing != "" {
			prime = "′"
		}
		tolMu := 0.005
		if routing != "" {
			tolMu = 0.01
		}
		if tr.muSE > 0 {
			tolMu = 0.03 + 3*tr.muSE/tr.mu
		}
		tolD := 0.0
		if tr.dSE > 0 {
			tolD = 0.10 + 3*tr.dSE/tr.d
		}
		muRow := row{Quantity: name + ": μ" + prime, Seed: pm(tr.mu, tr.muSE), SeedVal: tr.mu, Value: mu, Tol: tolMu, Cmd: cmd}
		dRow := row{Quantity: name + ": D" + prime, Seed: pm(tr.d, tr.dSE), SeedVal: tr.d, Value: d, Tol: tolD, Cmd: cmd}
		if tr.dSE == 0 {
			dRow.Tol, dRow.Abs = 0.01, true
			if routing != "" {
				dRow.Tol = 0.5
			}
		}
		if tr.bad != "" {
			muRow.Tol, dRow.Tol = 0, 0
			muRow.Note, dRow.Note = "not asserted: "+tr.bad, "not asserted: see μ"
		}
		rows = append(rows, check(t, muRow), check(t, dRow))
		for _, q := range []struct {
			what     string
			seed, se float64
			got      float64
		}{{"L" + prime + "_p", tr.lp, tr.lpSE, lp}, {"L" + prime + "_l", tr.ll, tr.llSE, ll}} {
			r := row{Quantity: name + ": " + q.what, Seed: pm(q.seed, q.se), SeedVal: q.seed, Value: q.got, Tol: loadTol, Cmd: cmd}
			spread := math.Max(q.se, 0.5) // the table's ± (or its rounding)
			if math.Abs(q.got-q.seed) <= 3*spread {
				r.Note = "within 3× the table's spread"
			} else {
				r.Note = fmt.Sprintf("outside the table's spread (%.1f×)", math.Abs(q.got-q.seed)/spread)
			}
			rows = append(rows, check(t, r))
		}
	}
	return section{
		Title: "Seed 003: all-to-all on double rings, tori and random Hamiltonian graphs, Tables 3.1–3.3 (cyclic rows)",
		Intro: "Every processor sends one message to every other, each sender's messages in random order (seed 003 " +
			"§3.4.3), on machines written in Parasol (validation/testdata): store and forward, equal messages, " +
			"shortest-path routing choosing among minimal links the one with the shortest queue, ties at random (the seed's " +
			"simulation queues messages on links and moves them a link per step). μ is the mean hop count scaled to " +
			"the seed's P² denominator (self pairs count 0; Parasol reports the mean over distinct pairs); D the " +
			"longest path; L_p the most messages through-routed by one processor; L_l the most messages over one " +
			"channel (means over runs, and over graphs for the random Hamiltonian rows: 10 graphs of 16 and 64, 4 of 256, " +
			"not the seed's graphs). μ and D exact for the regular graphs; loads within 8%; the Note column says whether " +
			"the load is within three times the table's stated spread. The 256-processor rows are skipped by -short.",
		Rows: rows,
		Notes: "Table 3.1's 256-processor row gives μ = 28 and D = 64, but a doubly linked ring of 256 processors has " +
			"diameter 128 and mean distance 64 (with the P² denominator), and the same row's L_p = 16138 and L_l = 4100 " +
			"agree with the simulated 256-ring (every channel carries about 4096 messages). The row is reported as " +
			"printed, not fitted. The random-graph rows use different random graphs from the seed's, so only " +
			"agreement within the seed's spread plus a margin is expected.",
	}
}
