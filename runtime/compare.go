package runtime

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// Comparison is a primitive's analytic cost beside the simulated cost of the
// same operation: the difference is what a modeller wants to see.
type Comparison struct {
	Primitive  string             `json:"primitive"`
	Params     []string           `json:"params"` // the primitive's parameters, in order
	Args       map[string]float64 `json:"args"`
	Op         string             `json:"op"`
	Metric     string             `json:"metric"`     // which simulated figure is compared
	Analytic   float64            `json:"analytic"`   // seconds
	Simulated  float64            `json:"simulated"`  // seconds
	Difference float64            `json:"difference"` // (simulated - analytic) / analytic
	Result     *Result            `json:"result"`
}

// primitiveOps maps a primitive's name to the operation that performs it.
var primitiveOps = map[string]string{
	"send": "send", "recv": "send", "receive": "send",
	"bcast": "broadcast", "broadcast": "broadcast", "multicast": "broadcast",
	"reduce": "reduce", "combine": "reduce", "allreduce": "barrier",
	"barrier": "barrier", "sync": "barrier",
	"alltoall": "alltoall", "allgather": "allgather", "concat": "allgather",
	"scatter": "scatter", "gather": "gather", "exchange": "exchange",
	"pingpong": "pingpong",
}

// pointToPoint ops compare the mean message latency; collectives compare the
// makespan, the time until every message (and acknowledgement) is done.
var pointToPoint = map[string]bool{"send": true, "pingpong": false}

func sizeParam(p string) bool {
	switch strings.ToLower(p) {
	case "n", "size", "bytes", "m", "len", "length":
		return true
	}
	return false
}

// Compare evaluates a primitive of a model section (such as "MPI.send") and
// simulates the matching operation with the same size and endpoints. The
// primitive's parameters are filled by name: n, size, bytes or m take
// opts.Size (bytes); src, from or root the source id; dst or to the
// destination id; p, procs, nodes or group the number of processors; k the
// number of other processors. opts.Op, when set, overrides the operation.
// A negative opts.Size picks one: 1 KB when the primitive takes a size,
// else 4 bytes.
func Compare(ctx context.Context, m *eval.Machine, spec *Spec, primitive string, opts Options) (*Comparison, error) {
	f, err := m.Func(primitive)
	if err != nil {
		return nil, err
	}
	name := primitive[strings.LastIndexAny(primitive, ".)")+1:]
	op := opts.Op
	if op == "" {
		if op = primitiveOps[strings.ToLower(name)]; op == "" {
			names := make([]string, 0, len(primitiveOps))
			for n := range primitiveOps {
				names = append(names, n)
			}
			sort.Strings(names)
			return nil, fmt.Errorf("no operation simulates %s; name one with --op (primitives with a known operation: %s)", primitive, strings.Join(names, ", "))
		}
		opts.Op = op
	}
	g := spec.Graph
	procs := g.NumProcs()
	src, dst := g.ID(g.Proc(0)), g.ID(g.Proc(procs-1))
	if opts.Src != nil {
		src = *opts.Src
	}
	if opts.Dst != nil {
		dst = *opts.Dst
	}
	if opts.Dst == nil && op == "exchange" && procs > 1 {
		dst = g.ID(g.Proc(1)) // the exchange pairs rank r with r xor 1
	}
	opts.Src, opts.Dst = &src, &dst
	if opts.Size < 0 {
		// No size given: 1 KB for a primitive that takes one, else one
		// 4-byte word (a barrier's token).
		opts.Size = 4
		for _, p := range f.Params() {
			if sizeParam(p) {
				opts.Size = 1024
			}
		}
	}
	c := &Comparison{Primitive: primitive, Params: f.Params(), Args: map[string]float64{}, Op: op}
	var args []lang.Value
	for _, p := range f.Params() {
		var v lang.Value
		switch strings.ToLower(p) {
		case "n", "size", "bytes", "m", "len", "length":
			v = lang.Quantity(float64(opts.Size), lang.SizeDim)
		case "src", "from", "root", "source":
			v = lang.Num(float64(src))
		case "dst", "to", "dest", "destination":
			v = lang.Num(float64(dst))
		case "p", "procs", "nodes", "group", "np":
			v = lang.Num(float64(procs))
		case "k":
			v = lang.Num(float64(procs - 1))
		default:
			return nil, fmt.Errorf("cannot fill parameter %s of %s: name it n (size), src, dst or p (processors)", p, primitive)
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
	c.Analytic = a.Num
	res, err := Simulate(ctx, spec, opts)
	if err != nil {
		return nil, err
	}
	c.Result = res
	if pointToPoint[op] {
		c.Metric, c.Simulated = "latency.mean", res.Latency.Mean
	} else {
		c.Metric, c.Simulated = "makespan", res.Makespan
	}
	if c.Analytic != 0 {
		c.Difference = (c.Simulated - c.Analytic) / c.Analytic
	}
	return c, nil
}
