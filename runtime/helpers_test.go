package runtime

import (
	"context"
	"math"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// compileMachine loads a machine, from the file spec name (such as
// "std:xmp64") when src is "" and else from the text src, and compiles
// its first topology into a Spec and, when program is not "", that
// program of the machine, with default options, into a schedule. The
// evaluator does this, and it imports package runtime, so this package's
// own tests cannot call it: the external test package sets it
// (machines_test.go, through export_test.go). Tests of the runtime whose
// network is clearest written as a machine use it; tests of the
// compilation itself are eval's.
var compileMachine func(name, src, program string) (*Spec, *lang.Schedule, error)

// loadSpec is the Spec of a machine file's first topology.
func loadSpec(t testing.TB, name string) *Spec {
	t.Helper()
	spec, _, err := compileMachine(name, "", "")
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// sourceSpec loads a machine from its text and makes its first topology's Spec.
func sourceSpec(t testing.TB, name, src string) *Spec {
	t.Helper()
	spec, _, err := compileMachine(name, src, "")
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// mustGen is the named generator's graph for args; it fails the test if
// the generator refuses them.
func mustGen(t testing.TB, name string, args ...int) *topo.Graph {
	t.Helper()
	g, err := topo.Generate(name, args, topo.GenerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// sim1 simulates spec once with o and fails the test on an error.
func sim1(t testing.TB, spec *Spec, o Options) *Result {
	t.Helper()
	r, err := Simulate(context.Background(), spec, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// near reports whether a and b agree to the relative tolerance rel.
func near(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))+1e-18
}

// basic is a Spec on g whose links all have latency lat and bandwidth bw.
func basic(g *topo.Graph, lat, bw float64) *Spec {
	return &Spec{Graph: g, DefaultLink: LinkParams{Latency: lat, Bandwidth: bw}}
}

// bookSimSpec is BookSim's default input-queued router on generator name's
// graph, one cycle a nanosecond and a 4-byte flit a cycle (as
// std:booksim-mesh): routers of four pipeline cycles and the given
// allocation delay, one-cycle wires, each processor behind its own router.
func bookSimSpec(t testing.TB, alloc float64, name string, args ...int) *Spec {
	t.Helper()
	spec := &Spec{Graph: mustGen(t, name, args...), DefaultLink: LinkParams{Latency: 1e-9, Bandwidth: 4e9},
		DefaultNode: NodeParams{HopDelay: 4e-9, AllocDelay: alloc}, Switching: Wormhole, Routing: "dor",
		Packet: PacketParams{FlitBytes: 4, BufferFlits: 8, VirtualChannels: 1}}
	s, err := WithNIC(spec, 1e-9, 4e9)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// chainSchedule is a schedule in which each rank's operations run one
// after the other (each requires the one before it).
func chainSchedule(colls []lang.Collective, ranks ...[]lang.SchedOp) *lang.Schedule {
	s := &lang.Schedule{Ranks: len(ranks), Colls: colls, DepStart: []int32{0}}
	for i := range s.Colls {
		s.Colls[i].Ranks = int32(len(ranks))
	}
	for _, ops := range ranks {
		s.RankStart = append(s.RankStart, int32(len(s.Ops)))
		for j, op := range ops {
			op.Label = -1
			s.Ops = append(s.Ops, op)
			if j > 0 {
				s.Deps = append(s.Deps, lang.SchedDep{Op: int32(len(s.Ops) - 2)})
			}
			s.DepStart = append(s.DepStart, int32(len(s.Deps)))
		}
	}
	s.RankStart = append(s.RankStart, int32(len(s.Ops)))
	return s
}

// calc, send, recv and coll are a schedule's operations: compute for t
// seconds, send or receive n bytes with a tag, join collective i.
func calc(t float64) lang.SchedOp { return lang.SchedOp{Kind: lang.OpCalc, Time: t} }

func send(to int32, n int64, tag int32) lang.SchedOp {
	return lang.SchedOp{Kind: lang.OpSend, Peer: to, Bytes: n, Tag: tag}
}

func recv(from int32, n int64, tag int32) lang.SchedOp {
	return lang.SchedOp{Kind: lang.OpRecv, Peer: from, Bytes: n, Tag: tag}
}

func coll(i int32) lang.SchedOp { return lang.SchedOp{Kind: lang.OpColl, Peer: i} }

// runProg runs schedule s on spec with o and fails the test on an error or
// on a breakdown that does not add up (checkBreakdown).
func runProg(t *testing.T, spec *Spec, s *lang.Schedule, o ProgramOptions) *ProgramResult {
	t.Helper()
	res, err := RunProgram(context.Background(), spec, s, o)
	if err != nil {
		t.Fatal(err)
	}
	checkBreakdown(t, res)
	return res
}

// closedWalk reports whether each channel of a cycle ends where the next
// begins.
func closedWalk(cycle []Channel) bool {
	for i, c := range cycle {
		if c.To != cycle[(i+1)%len(cycle)].From {
			return false
		}
	}
	return len(cycle) >= 2
}

// doubleRing is a ring of n processors with every link doubled (a
// multigraph: rule C′ merges the parallel links into components).
func doubleRing(t testing.TB, n int) *topo.Graph {
	t.Helper()
	b := topo.NewBuilder()
	for i := range n {
		b.Processor(i)
	}
	for i := range n {
		b.Connect(i, (i+1)%n).Connect(i, (i+1)%n)
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// probeNeed is the memory Simulate estimates for o on spec.
func probeNeed(t *testing.T, spec *Spec, o Options) int64 {
	t.Helper()
	n, err := compile(spec, o.Routing, o.Switching, 0)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := n.traffic(&o)
	if err != nil {
		t.Fatal(err)
	}
	need, err := n.checkBudget(tr, max(o.Runs, 1), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	return need
}

// ringSchedule is R ranks that each, iters times, compute 1 µs, pass n
// bytes to the right and receive from the left: 3·iters operations a rank.
func ringSchedule(R, iters int, n int64) *lang.Schedule {
	ranks := make([][]lang.SchedOp, R)
	for r := range ranks {
		for i := range iters {
			ranks[r] = append(ranks[r], calc(1e-6), send(int32((r+1)%R), n, int32(i)), recv(int32((r+R-1)%R), n, int32(i)))
		}
	}
	return chainSchedule(nil, ranks...)
}

// xmpSpec is a 64-core hypercube in the manner of seed 004: wormhole, 16-byte
// buffers, dimensions 0-1 on chip.
func xmpSpec(tb testing.TB) *Spec {
	g, err := topo.NewHypercube(6)
	if err != nil {
		tb.Fatal(err)
	}
	links := make([]LinkParams, g.NumLinks())
	for l := range links {
		links[l] = LinkParams{Latency: 200e-9, Bandwidth: 62.5e6}
		if g.Link(int32(l)).Dim < 2 {
			links[l].Latency = 70e-9
		}
	}
	return &Spec{Graph: g, Links: links, Switching: Wormhole, Routing: "ecube",
		Packet: PacketParams{Header: 4, FlitBytes: 1, BufferFlits: 16}}
}

// torusSpec is the scaling scenario: a k×k torus, wormhole, 2 lanes with
// datelines, dimension order, 4-byte flits, 4-flit buffers.
func torusSpec(tb testing.TB, k int) *Spec {
	g, err := topo.NewGrid([]int{k, k}, true)
	if err != nil {
		tb.Fatal(err)
	}
	return &Spec{Graph: g, DefaultLink: LinkParams{Latency: 1e-8, Bandwidth: 1e9}, Switching: Wormhole,
		Packet: PacketParams{Header: 4, FlitBytes: 4, BufferFlits: 4, VirtualChannels: 2}}
}

// checkBreakdown holds every rank's compute + send + recv + wait to its end.
func checkBreakdown(t *testing.T, res *ProgramResult) {
	t.Helper()
	for _, r := range res.Ranks {
		if sum := r.Compute + r.Send + r.Recv + r.Wait; !near(sum, r.End, 1e-9) && r.End > 0 {
			t.Errorf("rank %d: compute %g + send %g + recv %g + wait %g = %g, but it ends at %g", r.Rank, r.Compute, r.Send, r.Recv, r.Wait, sum, r.End)
		}
	}
}

// simFor compiles spec for opts and returns a worker state for it and
// opts' traffic.
func simFor(t *testing.T, spec *Spec, opts *Options) (*sim, *traffic) {
	t.Helper()
	n, err := compile(spec, opts.Routing, opts.Switching, 0)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := n.traffic(opts)
	if err != nil {
		t.Fatal(err)
	}
	return newSim(n, opts), tr
}

// runOnce runs one repetition of opts on spec and returns the worker state
// after it, so a test can inspect lanes and packets.
func runOnce(t *testing.T, spec *Spec, opts Options) (*sim, runResult) {
	t.Helper()
	s, tr := simFor(t, spec, &opts)
	r := s.once(context.Background(), tr, runSeed(opts.Seed, 0))
	if r.err != nil {
		t.Fatal(r.err)
	}
	return s, r
}

// testMsg is one message of runMessages: from node src to node dst.
type testMsg struct {
	src, dst int32
	bytes    int64
}

// runMessages simulates msgs, all issued at time 0 in the order given, on
// spec as it is compiled, and returns the simulator after them, for a test
// to read the messages' latencies and the wires' state.
func runMessages(t testing.TB, spec *Spec, seed uint64, msgs ...testMsg) *sim {
	t.Helper()
	n, err := compile(spec, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	tr := &traffic{op: "custom", channels: 1, links: 1}
	s := newSim(n, &Options{})
	s.reset(seed)
	for _, m := range msgs {
		s.addMsg(tr, m.src, m.dst, m.bytes)
	}
	s.linkDeps()
	s.run(context.Background())
	return s
}

// parOnUGALClasses is route --check's view of PAR (switchedNext) on a
// dragonfly with a lane per class, but with UGAL-L's 3 classes: the
// second local hop in the source group, where PAR turns nonminimal, is
// taken in class 0 as the first, which lets the local channels of a group
// wait for each other in a cycle (TestPARNeedsFourLaneClasses).
func parOnUGALClasses(n *network) func(buf []int, src, dst, at, in int) []int {
	V := n.lanes
	local := func(ch int) bool { return n.g.Link(int32(ch)/V/2).Dim == 1 }
	return func(buf []int, src, dst, at, in int) []int {
		k := len(buf)
		buf = n.switchedNext(buf, src, dst, at, in)
		if in >= 0 && local(in) && int32(in)%V == 0 {
			for i := k; i < len(buf); i++ {
				if local(buf[i]) && int32(buf[i])%V == 1 {
					buf[i]--
				}
			}
		}
		return buf
	}
}
