// Package collective turns the collective operations of a schedule
// (lang.OpColl) into the point-to-point sends and receives an MPI library
// would perform, by algorithm: both program executors (eval's analytic
// critical path when the machine's model section does not cost the
// collective as a whole, and the runtime's packet-level simulation) run
// the expanded schedule.
//
// Every algorithm is defined on relative ranks v = (r - root) mod P; the
// dependencies between one rank's operations follow the algorithm's data
// flow (a rank forwards what it has received), not program order, so a
// rank may post all the receives of a step at once. Reductions cost no
// computation here: the combining arithmetic is not modelled.
//
// Messages of collective number c carry tag Tag(c) (≤ -2), which no
// program or GOAL tag can take (they are ≥ 0, and -1 is lang.AnyTag): a
// collective's messages never match a program's receive, nor another
// collective's. A receive with AnyTag matches only program tags
// (TagMatches), as MPI keeps collective traffic apart from point-to-point
// traffic on a communicator.
package collective

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/registry"
)

// Options choose defaults and bounds for Expand.
type Options struct {
	// Hypercube says the machine's topology is a binary hypercube: a
	// barrier of a power-of-two group then defaults to dimension exchange
	// (seed 004 Algorithm 1).
	Hypercube bool
	// Segment is the pipelined broadcast's segment size in bytes; 0 means
	// DefaultSegment.
	Segment int64
	// MaxMemory bounds the expanded schedule, in bytes (0: limits.Default()).
	MaxMemory int64
}

// DefaultSegment is the pipelined broadcast's segment size unless
// Options.Segment says otherwise.
const DefaultSegment = 8 << 10

// opBytes estimates what one operation of a schedule costs in memory (the
// op, its dependencies' share, the CSR offset).
const opBytes = 48

// algorithm emits rank r's operations of one collective.
type algorithm func(e *emitter, c *lang.Collective, r int) error

// impls implements every algorithm of registry.Collectives (a test holds
// the two equal), keyed "collective/algorithm".
var impls = map[string]algorithm{
	"barrier/dissemination":        dissemination,
	"barrier/dimension":            dimensionBarrier,
	"barrier/tree":                 treeBarrier,
	"bcast/binomial":               binomialBcast,
	"bcast/linear":                 linearBcast,
	"bcast/pipeline":               pipelineBcast,
	"reduce/binomial":              binomialReduce,
	"reduce/linear":                linearReduce,
	"allreduce/ring":               ringAllreduce,
	"allreduce/recursive-doubling": doublingAllreduce,
	"allreduce/reduce-bcast":       reduceBcast,
	"allgather/ring":               ringAllgather,
	"allgather/recursive-doubling": doublingAllgather,
	"alltoall/pairwise":            pairwiseAlltoall,
	"alltoall/linear":              linearAlltoall,
	"scatter/linear":               linearScatter,
	"scatter/binomial":             binomialScatter,
	"gather/linear":                linearGather,
	"gather/binomial":              binomialGather,
}

// Default is the algorithm a collective of a group of ranks uses when the
// program names none: the first registry.Collectives lists for it, except
// that a barrier of a power-of-two group on a hypercube exchanges along
// dimensions.
func Default(name string, ranks int, o Options) string {
	if name == "barrier" && o.Hypercube && isPow2(ranks) {
		return "dimension"
	}
	if c, ok := registry.LookupCollective(name); ok && len(c.Algorithms.Entries) > 0 {
		return c.Algorithms.Entries[0].Name
	}
	return ""
}

// Resolve returns the algorithm collective c runs with: its own choice or
// the default, checked against registry.Collectives.
func Resolve(c *lang.Collective, o Options) (string, error) {
	rc, ok := registry.LookupCollective(c.Name)
	if !ok {
		names := make([]string, len(registry.Collectives))
		for i, x := range registry.Collectives {
			names[i] = x.Name
		}
		return "", fmt.Errorf("unknown collective %q (want %s)", c.Name, strings.Join(names, ", "))
	}
	if c.Algorithm == "" {
		return Default(c.Name, int(c.Ranks), o), nil
	}
	en, ok := rc.Algorithms.Lookup(c.Algorithm)
	if !ok {
		return "", fmt.Errorf("%s has no algorithm %q (want %s)%s", c.Name, c.Algorithm, rc.Algorithms.List(), lang.DidYouMean(c.Algorithm, rc.Algorithms.Spellings()))
	}
	return en.Name, nil
}

// Tag is the tag of collective number c's messages.
func Tag(c int) int32 { return -2 - int32(c) }

// TagMatches reports whether a receive posted for tag want accepts a
// message with tag got: AnyTag accepts any program tag, never a
// collective's.
func TagMatches(want, got int32) bool {
	return want == got || want == lang.AnyTag && got >= 0
}

// Expand returns s with every OpColl replaced by point-to-point
// operations; s itself is not changed, and is returned as it is when it
// has no collectives. An operation that required a collective requires
// all of the collective's final operations on its rank; one that
// irequired it irequires its first. A rank with nothing to do in a
// collective (every rank, when P = 1) gets one zero-time calc in its
// place, so dependencies pass through. Errors (an algorithm that needs a
// power-of-two number of ranks, say) are positioned at the collective's
// line.
func Expand(s *lang.Schedule, o Options) (*lang.Schedule, error) {
	x, _, err := ExpandOrigin(s, o)
	return x, err
}

// ExpandOrigin is Expand that also says where each operation of the
// result came from: origin[i] is the index in s.Ops of the operation (the
// collective, for an expansion's) that operation i stands for. origin is
// nil when s has no collectives and is returned as it is.
func ExpandOrigin(s *lang.Schedule, o Options) (x *lang.Schedule, origin []int32, err error) {
	has := false
	for i := range s.Ops {
		if op := &s.Ops[i]; op.Kind == lang.OpColl {
			has = true
			if op.Peer < 0 || int(op.Peer) >= len(s.Colls) {
				return nil, nil, posErr(s, op.Line, "operation %d calls collective %d; the schedule has %d", i-int(s.RankStart[s.RankOf(i)]), op.Peer, len(s.Colls))
			}
		}
	}
	if !has {
		return s, nil, nil
	}
	algs := make([]algorithm, len(s.Colls))
	names := make([]string, len(s.Colls))
	for i := range s.Colls {
		c := &s.Colls[i]
		name, err := Resolve(c, o)
		if err != nil {
			return nil, nil, posErr(s, c.Line, "%v", err)
		}
		names[i] = name
		algs[i] = impls[c.Name+"/"+name]
		if c.Ranks <= 0 || int(c.Ranks) > s.Ranks {
			return nil, nil, posErr(s, c.Line, "%s: a group of %d ranks in a schedule of %d", c.Name, c.Ranks, s.Ranks)
		}
		if c.Root < 0 || c.Root >= c.Ranks {
			return nil, nil, posErr(s, c.Line, "%s: root %d is not a rank (ranks are 0..%d)", c.Name, c.Root, c.Ranks-1)
		}
		if c.Bytes < 0 {
			return nil, nil, posErr(s, c.Line, "%s: %d bytes", c.Name, c.Bytes)
		}
	}
	seg := o.Segment
	if seg <= 0 {
		seg = DefaultSegment
	}
	out := &lang.Schedule{Name: s.Name, Ranks: s.Ranks, Colls: s.Colls, Labels: s.Labels, Src: s.Src, Map: s.Map, Regs: s.Regs, Exprs: s.Exprs, RegNames: s.RegNames, Routings: s.Routings,
		RankStart: make([]int32, 0, s.Ranks+1), DepStart: []int32{0}}
	out.Ops = make([]lang.SchedOp, 0, len(s.Ops))
	out.Deps = make([]lang.SchedDep, 0, len(s.Deps))
	origin = make([]int32, 0, len(s.Ops))
	maxOps := limits.Or(o.MaxMemory) / opBytes
	e := &emitter{seg: seg, maxOps: maxOps, maxMem: limits.Or(o.MaxMemory)}
	for r := range s.Ranks {
		e.before = int64(len(out.Ops))
		base := int32(len(out.Ops))
		out.RankStart = append(out.RankStart, base)
		if err := e.rank(s, r, algs); err != nil {
			return nil, nil, err
		}
		if int64(len(out.Ops))+int64(len(e.ops)) > maxOps {
			return nil, nil, &limits.TooLarge{What: fmt.Sprintf("the schedule with its collectives expanded (%d operations by rank %d)", len(out.Ops)+len(e.ops), r),
				Need: limits.Mul(int64(len(out.Ops)+len(e.ops)), opBytes), Limit: limits.Or(o.MaxMemory)}
		}
		out.Ops = append(out.Ops, e.ops...)
		for _, j := range e.orig {
			origin = append(origin, s.RankStart[r]+j)
		}
		for i := range e.ops {
			for _, d := range e.resolved(i) {
				out.Deps = append(out.Deps, lang.SchedDep{Op: base + d.Op, Start: d.Start})
			}
			out.DepStart = append(out.DepStart, int32(len(out.Deps)))
		}
	}
	out.RankStart = append(out.RankStart, int32(len(out.Ops)))
	return out, origin, nil
}

// posErr is a diagnostic at a collective's line.
func posErr(s *lang.Schedule, line int32, format string, args ...any) error {
	if s.Src == nil || line <= 0 {
		return fmt.Errorf(format, args...)
	}
	return lang.Errorf(linePos(s.Src, int(line)), format, args...)
}

// linePos is the position of the first non-blank column of a line.
func linePos(src *lang.Source, line int) lang.Pos {
	off, n := 0, 1
	for n < line {
		i := strings.IndexByte(src.Text[off:], '\n')
		if i < 0 {
			return lang.Pos{Src: src, Line: line, Col: 1}
		}
		off += i + 1
		n++
	}
	for off < len(src.Text) && (src.Text[off] == ' ' || src.Text[off] == '\t') {
		off++
	}
	return src.PosAt(off)
}

// rawDep is a prerequisite before resolution: internal ones name an
// operation of the expansion being built (a new local index); old ones an
// operation of the input rank (an old local index).
type rawDep struct {
	op    int32
	start bool
	old   bool
}

// emitter builds one rank's expanded operations.
type emitter struct {
	seg int64
	// The expansion may have maxOps operations (maxMem bytes); before
	// is how many the ranks before this one have.
	maxOps, maxMem, before int64

	ops     []lang.SchedOp
	orig    []int32 // new op -> old local op
	depsAt  []int32 // raw deps of new op i: raw[depsAt[i]:depsAt[i+1]]
	raw     []rawDep
	newIdx  []int32 // old local op -> first new local op
	termAt  []int32 // old local op -> terms[termAt[j]:termAt[j+1]]
	terms   []int32
	out     []lang.SchedDep
	used    []bool // per new op of the current collective: something requires it
	collOld []lang.SchedDep
	first   int32 // first new op of the current collective

	// the collective being expanded, operation j of the rank
	j     int32
	tag   int32
	label int32
	line  int32
	cpu   uint8
	r, P  int
	root  int
	v     int // relative rank
}

func (e *emitter) rank(s *lang.Schedule, r int, algs []algorithm) error {
	e.ops, e.orig, e.raw, e.terms = e.ops[:0], e.orig[:0], e.raw[:0], e.terms[:0]
	e.depsAt = append(e.depsAt[:0], 0)
	e.newIdx, e.termAt = e.newIdx[:0], append(e.termAt[:0], 0)
	lo := int(s.RankStart[r])
	for j, op := range s.OpsOf(r) {
		e.newIdx = append(e.newIdx, int32(len(e.ops)))
		old := s.DepsOf(lo + j)
		e.j = int32(j)
		if op.Kind != lang.OpColl {
			e.ops = append(e.ops, op)
			e.orig = append(e.orig, e.j)
			for _, d := range old {
				e.raw = append(e.raw, rawDep{op: d.Op - int32(lo), start: d.Start, old: true})
			}
			e.depsAt = append(e.depsAt, int32(len(e.raw)))
			e.terms = append(e.terms, int32(len(e.ops)-1))
			e.termAt = append(e.termAt, int32(len(e.terms)))
			continue
		}
		c := &s.Colls[op.Peer]
		e.collOld = append(e.collOld[:0], old...)
		for i := range e.collOld {
			e.collOld[i].Op -= int32(lo)
		}
		e.first = int32(len(e.ops))
		e.tag, e.label, e.line, e.cpu = Tag(int(op.Peer)), op.Label, op.Line, op.CPU
		e.r, e.P, e.root = r, int(c.Ranks), int(c.Root)
		e.v = (r - e.root + e.P) % e.P
		e.used = e.used[:0]
		if r < e.P {
			if err := algs[op.Peer](e, c, r); err != nil {
				return posErr(s, c.Line, "%s(algorithm: %s): %v", c.Name, algName(c), err)
			}
		}
		if int32(len(e.ops)) == e.first {
			e.calc(nil)
		}
		for i, u := range e.used {
			if !u {
				e.terms = append(e.terms, e.first+int32(i))
			}
		}
		e.termAt = append(e.termAt, int32(len(e.terms)))
	}
	return nil
}

func algName(c *lang.Collective) string {
	if c.Algorithm == "" {
		return "default"
	}
	return c.Algorithm
}

// resolved returns new op i's prerequisites as new local indices.
func (e *emitter) resolved(i int) []lang.SchedDep {
	e.out = e.out[:0]
	for _, d := range e.raw[e.depsAt[i]:e.depsAt[i+1]] {
		if !d.old {
			e.out = append(e.out, lang.SchedDep{Op: d.op, Start: d.start})
			continue
		}
		if d.start {
			e.out = append(e.out, lang.SchedDep{Op: e.newIdx[d.op], Start: true})
			continue
		}
		for _, t := range e.terms[e.termAt[d.op]:e.termAt[d.op+1]] {
			e.out = append(e.out, lang.SchedDep{Op: t})
		}
	}
	return e.out
}

// emit appends an operation of the current collective that requires the
// completion of each of after (values returned by earlier emits, or -1 for
// "nothing yet"); one that requires none of them requires what the
// collective required.
func (e *emitter) emit(op lang.SchedOp, after []int32) int32 {
	op.Label, op.Line, op.CPU = e.label, e.line, e.cpu
	e.ops = append(e.ops, op)
	e.orig = append(e.orig, e.j)
	e.used = append(e.used, false)
	entry := true
	for _, a := range after {
		entry = entry && a < 0
	}
	if entry {
		for _, d := range e.collOld {
			e.raw = append(e.raw, rawDep{op: d.Op, start: d.Start, old: true})
		}
	}
	for _, a := range after {
		if a < 0 {
			continue
		}
		e.raw = append(e.raw, rawDep{op: a})
		e.used[a-e.first] = true
	}
	e.depsAt = append(e.depsAt, int32(len(e.raw)))
	return int32(len(e.ops) - 1)
}

// send and recv take peers as relative ranks.
func (e *emitter) send(v int, bytes int64, after ...int32) int32 {
	return e.emit(lang.SchedOp{Kind: lang.OpSend, Peer: e.abs(v), Bytes: bytes, Tag: e.tag}, after)
}

func (e *emitter) recv(v int, bytes int64, after ...int32) int32 {
	return e.emit(lang.SchedOp{Kind: lang.OpRecv, Peer: e.abs(v), Bytes: bytes, Tag: e.tag}, after)
}

func (e *emitter) calc(after []int32) int32 {
	return e.emit(lang.SchedOp{Kind: lang.OpCalc}, after)
}

func (e *emitter) abs(v int) int32 { return int32((v%e.P+e.P)%e.P+e.root) % int32(e.P) }

// room refuses a collective that would add k operations to the rank
// beyond the memory limit, before they are emitted: a pipeline of a
// petabyte in 8 KiB segments would otherwise fill the memory first.
func (e *emitter) room(k int64) error {
	if n := limits.Add(e.before, int64(len(e.ops)), k); n > e.maxOps {
		return &limits.TooLarge{What: fmt.Sprintf("the schedule with its collectives expanded (%d operations by rank %d)", n, e.r),
			Need: limits.Mul(n, opBytes), Limit: e.maxMem}
	}
	return nil
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func needPow2(P int) error {
	if !isPow2(P) {
		return fmt.Errorf("needs a power-of-two number of ranks, have %d", P)
	}
	return nil
}

// lowBit is the lowest set bit of v (P's next power of two for v = 0).
func lowBit(v, P int) int {
	if v == 0 {
		return 1 << bits.Len(uint(P-1))
	}
	return v & -v
}
