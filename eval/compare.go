package eval

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// Comparison is a primitive's analytic cost beside the simulated cost of the
// same operation: the difference is what a modeller wants to see.
type Comparison struct {
	Primitive string             `json:"primitive"`
	Params    []string           `json:"params"` // the primitive's parameters, in order
	Args      map[string]float64 `json:"args"`
	Op        string             `json:"op"`
	Metric    string             `json:"metric"` // which simulated figure is compared
	// Traffic says what was simulated; MessageSize is the bytes of each
	// message (of the first block, for allgather's doubling blocks).
	Traffic     string  `json:"traffic"`
	MessageSize int     `json:"message_size"`
	Analytic    float64 `json:"analytic"`   // seconds
	Simulated   float64 `json:"simulated"`  // seconds
	Difference  float64 `json:"difference"` // (simulated - analytic) / analytic; 0 when analytic is 0 (see Note)
	// Note says when a flag was not used, and why.
	Note   string          `json:"note,omitempty"`
	Result *runtime.Result `json:"result"`
}

// The figures a comparison reads from the simulation.
const (
	// MetricLatency is the mean message latency, from the start of sending
	// to delivery (the receiver's overhead included).
	MetricLatency = "latency.mean"
	// MetricMakespan is the time until every message, and every
	// acknowledgement, is done.
	MetricMakespan = "makespan"
	// MetricRecv is the receiver's CPU time per message as the simulation
	// charges it: the recv_overhead of Dst. A receive primitive costs
	// that part of a message, not its journey.
	MetricRecv = "recv_overhead"
)

// A Counterpart says how compare simulates a family of model primitives:
// the operation that implements them, the messages it sends and the figure
// set beside the analytic cost.
type Counterpart struct {
	// Names are primitive names after the model section, lower case; a
	// name ending in * matches every name that begins with the rest.
	Names []string
	// Op is the simulated operation (see runtime.Ops); "" when the primitive sends
	// nothing, and NotNetwork says what it costs instead.
	Op         string
	NotNetwork string
	// Traffic describes the messages in terms of the primitive's
	// arguments: n (bytes), p (group: every processor), k (destinations:
	// every other processor), Src and Dst (--src, --dst).
	Traffic string
	Metric  string
	// NoPayload: the messages carry no data, 0 bytes (a packet header
	// where the machine has one), whatever the size given.
	NoPayload bool
}

// Counterparts is compare's table, covering every PVM, Express and MPI
// primitive of std:models. A primitive is looked up by its name alone, so a
// machine's own model sections use the same table.
var Counterparts = []Counterpart{
	{Names: []string{"send"}, Op: "send", Metric: MetricLatency,
		Traffic: "one n-byte message Src → Dst"},
	{Names: []string{"recv", "receive"}, Op: "send", Metric: MetricRecv,
		Traffic: "one n-byte message Src → Dst; compared: what its receipt costs Dst's CPU"},
	{Names: []string{"exchange"}, Op: "swap", Metric: MetricMakespan,
		Traffic: "Src and Dst send each other n bytes at once"},
	{Names: []string{"pingpong"}, Op: "pingpong", Metric: MetricMakespan,
		Traffic: "n bytes Src → Dst, then back"},
	{Names: []string{"barrier"}, Op: "barrier", Metric: MetricMakespan, NoPayload: true,
		Traffic: "dimension exchange on a hypercube (seed 004 Algorithm 1), else binomial fan-in to rank 0 and fan-out; empty messages"},
	{Names: []string{"sync"}, Op: "treebarrier", Metric: MetricMakespan, NoPayload: true,
		Traffic: "binomial fan-in to rank 0, then fan-out (std:models' PVM and Express sync); empty messages"},
	{Names: []string{"bcast", "broadcast"}, Op: "broadcast", Metric: MetricMakespan,
		Traffic: "binomial tree from Src to all p processors, n bytes per message"},
	{Names: []string{"multicast"}, Op: "scatter", Metric: MetricMakespan,
		Traffic: "Src sends n bytes to each of the k others in turn (pvm_mcast)"},
	{Names: []string{"reduce"}, Op: "reduce", Metric: MetricMakespan,
		Traffic: "binomial tree from all p processors into Src, n bytes per message (the arithmetic is not simulated)"},
	{Names: []string{"allreduce"}, Op: "allreduce", Metric: MetricMakespan,
		Traffic: "reduce into Src then broadcast from Src, binomial trees, n bytes per message (std:models' MPI allreduce)"},
	{Names: []string{"combine"}, Op: "combine", Metric: MetricMakespan,
		Traffic: "recursive doubling: in step i every processor swaps n bytes with its partner across dimension i (Express combine; reduce then broadcast when p is not a power of two)"},
	{Names: []string{"allgather", "concat"}, Op: "allgather", Metric: MetricMakespan,
		Traffic: "recursive doubling, the n-byte block doubling every step (gather then broadcast of p×n bytes when p is not a power of two)"},
	{Names: []string{"scatter"}, Op: "scatter", Metric: MetricMakespan,
		Traffic: "Src sends n bytes to every other processor, in rank order"},
	{Names: []string{"gather"}, Op: "gather", Metric: MetricMakespan,
		Traffic: "every other processor sends n bytes to Src"},
	{Names: []string{"alltoall"}, Op: "alltoall", Metric: MetricMakespan,
		Traffic: "every processor sends n bytes to every other"},
	{Names: []string{"spawn"}, NotNetwork: "it starts a task: processor time, no message"},
	{Names: []string{"pack*", "unpack*"}, NotNetwork: "it copies items into or out of a message buffer: memory time, no message"},
}

// CounterpartOf finds the table entry for a primitive such as "MPI.bcast"
// (by the name after the model section, in any case).
func CounterpartOf(primitive string) (*Counterpart, bool) {
	name := strings.ToLower(primitive[strings.LastIndexAny(primitive, ".)")+1:])
	for i := range Counterparts {
		for _, n := range Counterparts[i].Names {
			if n == name || strings.HasSuffix(n, "*") && strings.HasPrefix(name, n[:len(n)-1]) {
				return &Counterparts[i], true
			}
		}
	}
	return nil, false
}

// NotSimulatedError refuses a primitive that compare cannot simulate:
// one with no entry in Counterparts, or one that is not a network operation.
type NotSimulatedError struct {
	Primitive string
	Reason    string
}

func (e *NotSimulatedError) Error() string { return e.Reason }

func sizeParam(p string) bool {
	switch strings.ToLower(p) {
	case "n", "size", "bytes", "m", "len", "length":
		return true
	}
	return false
}

// CompareSize is the message size, in bytes, that Compare gives a
// primitive's size parameter when opts.Size is negative (none given): 1 KiB.
const CompareSize = 1024

// Compare evaluates a primitive of a model section (such as "MPI.send") and
// simulates the operation that Counterparts gives for it, on all of the
// machine's processors. The primitive's parameters are filled by name: n,
// size, bytes or m take opts.Size (bytes); src, from or root the source id;
// dst or to the destination id; p, procs, nodes or group the number of
// processors; k the number of other processors. A negative opts.Size means
// none was given: CompareSize, 1 KiB. The messages carry the size argument, except that a
// primitive without one, or one whose messages carry no payload (a
// barrier), sends empty messages. opts.Op, when set, overrides the
// operation (and the metric becomes the makespan unless the op is send).
func Compare(ctx context.Context, m *Machine, spec *runtime.Spec, primitive string, opts runtime.Options) (*Comparison, error) {
	f, err := m.Func(primitive)
	if err != nil {
		return nil, err
	}
	cp, known := CounterpartOf(primitive)
	switch {
	case known && cp.Op == "":
		return nil, &NotSimulatedError{primitive, fmt.Sprintf("%s is not a network operation (%s); there is nothing to simulate", primitive, cp.NotNetwork)}
	case !known && opts.Op == "":
		return nil, &NotSimulatedError{primitive, fmt.Sprintf("no simulated operation implements %s; compare knows %s (parasol compare --help lists them), or name an operation with --op", primitive, knownPrimitives())}
	}
	c := &Comparison{Primitive: primitive, Params: f.Params(), Args: map[string]float64{}}
	if opts.Op == "" {
		c.Op, c.Metric, c.Traffic = cp.Op, cp.Metric, cp.Traffic
	} else {
		doc, _ := runtime.OpDoc(opts.Op)
		c.Op, c.Metric, c.Traffic = opts.Op, MetricMakespan, doc
		if opts.Op == "send" {
			c.Metric = MetricLatency
		}
	}
	opts.Op = c.Op

	g := spec.Graph
	procs := g.NumProcs()
	src, dst := g.ID(g.Proc(0)), g.ID(g.Proc(procs-1))
	if opts.Src != nil {
		src = *opts.Src
	}
	if opts.Dst != nil {
		dst = *opts.Dst
	}
	opts.Src, opts.Dst = &src, &dst

	c.MessageSize, c.Note = compareSize(primitive, f, cp, known, opts.Size)
	n := CompareSize
	if opts.Size >= 0 {
		n = opts.Size
	}
	opts.Size = c.MessageSize

	var args []lang.Value
	for _, p := range f.Params() {
		var v lang.Value
		switch strings.ToLower(p) {
		case "n", "size", "bytes", "m", "len", "length":
			v = lang.Quantity(float64(n), lang.SizeDim)
		case "src", "from", "root", "source":
			v = lang.Num(float64(src))
		case "dst", "to", "dest", "destination":
			v = lang.Num(float64(dst))
		case "p", "procs", "nodes", "group", "np":
			v = lang.Num(float64(procs))
		case "k":
			v = lang.Num(float64(procs - 1))
		default:
			return nil, fmt.Errorf("cannot fill parameter %s of %s: name it n (size), src, dst, p (processors) or k (other processors)", p, primitive)
		}
		c.Args[p] = v.Num
		args = append(args, v)
	}
	a, err := f.Call(args...)
	if err != nil {
		return nil, err
	}
	if a.Kind != lang.Number || a.Dim != lang.TimeDim {
		return nil, fmt.Errorf("%s gives a %s, not a time", primitive, a.TypeName())
	}
	if err := f.CheckCost(a); err != nil {
		return nil, err
	}
	c.Analytic = a.Num
	res, err := runtime.Simulate(ctx, spec, opts)
	if err != nil {
		return nil, err
	}
	c.Result = res
	switch c.Metric {
	case MetricLatency:
		c.Simulated = res.Latency.Mean
	case MetricRecv:
		c.Simulated = recvOverhead(spec, dst)
	default:
		c.Simulated = res.Makespan
	}
	if c.Analytic != 0 {
		c.Difference = RelativeDifference(c.Simulated, c.Analytic)
	} else {
		c.Note = strings.TrimPrefix(c.Note+"; no relative difference: the analytic cost is 0", "; ")
	}
	return c, nil
}

// CompareMessageSize is the size, in bytes, of the messages Compare
// simulates for primitive when given size (negative: none): what a
// machine's MessageSizeParam is set to before its network is compiled.
func CompareMessageSize(m *Machine, primitive string, size int) (int, error) {
	f, err := m.Func(primitive)
	if err != nil {
		return 0, err
	}
	cp, known := CounterpartOf(primitive)
	n, _ := compareSize(primitive, f, cp, known, size)
	return n, nil
}

// compareSize is the payload of the messages Compare simulates for
// primitive f given size (negative: none, CompareSize), and a note when a
// size given is not used.
func compareSize(primitive string, f *Func, cp *Counterpart, known bool, size int) (int, string) {
	sizeGiven := size >= 0
	n := CompareSize
	if sizeGiven {
		n = size
	}
	takesSize := false
	for _, p := range f.Params() {
		takesSize = takesSize || sizeParam(p)
	}
	switch {
	case known && cp.NoPayload:
		if sizeGiven && n != 0 {
			return 0, fmt.Sprintf("--size %d is not used: %s is a barrier, whose messages carry no payload", n, primitive)
		}
		return 0, ""
	case takesSize:
		return n, ""
	default:
		if sizeGiven && n != 0 {
			return 0, fmt.Sprintf("--size %d is not used: %s takes no size, so its messages carry no payload", n, primitive)
		}
		return 0, ""
	}
}

// RelativeDifference is (simulated - analytic) / analytic, 0 when the two
// are equal up to float rounding (no -1.4e-16 noise in printed output).
// Compare and program.Run report their differences with it.
func RelativeDifference(simulated, analytic float64) float64 {
	d := (simulated - analytic) / analytic
	if math.Abs(d) < 1e-12 {
		return 0
	}
	return d
}

// recvOverhead is the receiver's CPU time per message at node id, as the
// simulator charges it on delivery.
func recvOverhead(spec *runtime.Spec, id int) float64 {
	v, ok := spec.Graph.Index(id)
	if !ok {
		return spec.DefaultNode.RecvOverhead
	}
	return spec.Node(v).RecvOverhead
}

// knownPrimitives lists the names in Counterparts that compare simulates.
func knownPrimitives() string {
	var names []string
	for _, c := range Counterparts {
		if c.Op != "" {
			names = append(names, c.Names...)
		}
	}
	return strings.Join(names, ", ")
}
