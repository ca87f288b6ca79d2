package runtime

import (
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// ops describes the operations Simulate runs, by name (read through Ops
// and OpDoc, so that no caller can change it). Ranks are processors in
// node index order (the hypercube label on a hypercube); messages to
// oneself are not sent.
var ops = map[string]string{
	"send":          "one message Src -> Dst",
	"pingpong":      "Src -> Dst, then Dst -> Src once it has arrived",
	"swap":          "Src and Dst send each other a message at the same time (Express exchange)",
	"shuffle":       "bit permutation d_i = s_(i-1 mod b) of the b-bit rank (seed 004 §4.1; 2^b processors)",
	"transpose":     "bit permutation d_i = s_(i+b/2 mod b) of the whole b-bit rank (seed 004 §4.1's formula: the generic matrix transpose)",
	"xmp-transpose": "seed 004 §4.1's transpose on the XK-XMP-64: rank bits 0-1 (the core on its chip) stay, the chip bits above them rotate by half their number (on 64 cores the four chip bits by two)",
	"bitcomp":       "bit permutation d_i = not s_i",
	"bitrev":        "bit permutation d_i = s_(b-i-1)",
	"randperm":      "a random permutation, new each run",
	"uniform":       "every processor to a uniformly random other processor",
	"neighbor":      "every processor to its next neighbour (+1 along dimension 0; r xor 1 on a hypercube)",
	"tornado":       "every processor to (x + ceil(k/2) - 1) mod k in every dimension (a 2-D flattened butterfly: its terminals' grid, as BookSim's; rank + ceil(P/2) - 1 off grids)",
	"hotspot":       "every processor to Dst",
	advOp:           "dragonflies: every processor to a random processor of the next group (BookSim's bad_dragon)",
	"alltoall":      "every processor to every other, each sender's messages in random order (seed 003 §3.4.3)",
	"barrier":       "dimension exchange on a hypercube (seed 004 Algorithm 1); else binomial-tree reduce to rank 0 then broadcast",
	"treebarrier":   "binomial-tree fan-in to rank 0, then fan-out from it, on any topology",
	"broadcast":     "binomial tree from Src",
	"reduce":        "binomial tree into Src: a node sends once all its children have",
	"allreduce":     "reduce into Src, then broadcast from Src (binomial trees; every message Size bytes)",
	"combine":       "recursive doubling: in step i rank r swaps Size bytes with r xor 2^i once it has step i-1's (2^b processors); else as allreduce",
	"allgather":     "recursive doubling with doubling sizes (2^b processors); else gather to rank 0 then broadcast of P×Size",
	"exchange":      "rank r swaps a message with rank r xor 1",
	"scatter":       "Src sends a message to every other processor, in rank order",
	"gather":        "every other processor sends a message to Src",
}

// bitSources are the bit permutations of seed 004 §4.1 given by where each
// destination bit comes from: d_i = s_(src(i, b)) for a b-bit rank.
// (Bit-complement negates bits instead of moving them; see bitPermDest.)
var bitSources = map[string]func(i, b int) int{
	"shuffle":   func(i, b int) int { return (i - 1 + b) % b },
	"transpose": func(i, b int) int { return (i + b/2) % b },
	"bitrev":    func(i, b int) int { return b - i - 1 },
	// Seed 004 §4.1: "For the XK-XMP-64 as [we] are interested in the four
	// dimensions of the hypercube, the transpose relates to a circular
	// shift of two, performed on the four most significant bits"; the two
	// low bits pick a core on its chip (§2).
	"xmp-transpose": func(i, b int) int {
		if i < xmpCoreBits {
			return i
		}
		c := b - xmpCoreBits
		return xmpCoreBits + (i-xmpCoreBits+c/2)%c
	},
}

// xmpCoreBits is the width of the core number within an XS1-G4 chip: four
// cores, hypercube dimensions 0 and 1 (seed 004 §2).
const xmpCoreBits = 2

// bitPermDest is the destination of rank r under the bit permutation op of
// b-bit ranks.
func bitPermDest(op string, r, b int) int {
	if op == "bitcomp" {
		return ^r & (1<<b - 1)
	}
	src := bitSources[op]
	d := 0
	for i := range b {
		d |= (r >> src(i, b) & 1) << i
	}
	return d
}

// isBitPerm reports whether op is one of seed 004's bit permutations.
func isBitPerm(op string) bool {
	_, ok := bitSources[op]
	return ok || op == "bitcomp"
}

// permutation is the destination rank of every rank under the bit
// permutation op on P processors.
func permutation(op string, P int) ([]int, error) {
	if !isBitPerm(op) {
		return nil, unknownOp(op)
	}
	if P <= 0 || P&(P-1) != 0 {
		return nil, fmt.Errorf("op %s needs a power-of-two number of processors, have %d", op, P)
	}
	b := bits.Len(uint(P)) - 1
	out := make([]int, P)
	for r := range out {
		out[r] = bitPermDest(op, r, b)
	}
	return out, nil
}

// traffic holds the resolved parameters of an experiment.
type traffic struct {
	op               string
	src, dst         int32 // node indices
	size             int64
	channels, links  int
	payload, hdrTail int64
	circuit          bool
}

func (s *sim) addMsg(tr *traffic, src, dst int32, size int64) int32 {
	if src == dst {
		return -1
	}
	return s.newMsg(tr, src, dst, size)
}

// newMsg is addMsg's message, to the source itself too (open-loop uniform
// traffic with Load.Self, through the source's router and back).
func (s *sim) newMsg(tr *traffic, src, dst int32, size int64) int32 {
	m := int32(len(s.msgs))
	nparts := tr.parts(size)
	s.msgs = append(s.msgs, message{src: src, dst: dst, size: size, part0: int32(len(s.parts)), parts: int32(nparts)})
	s.parts = slices.Grow(s.parts, int(nparts))[:len(s.parts)+int(nparts)]
	s.setParts(tr, m)
	return m
}

// reuse is a message of size bytes from src to dst made of the last of
// spare, messages their senders and receivers are done with (and no
// acknowledgement will come back for), and takes it off spare; -1 if
// spare is empty or its last splits into a different number of parts.
// Program runs and open-loop points reuse their delivered messages so,
// which otherwise took 150 B each of memory never touched again (an
// open-loop curve's garbage). A message's id decides no order: the
// kernel's events are ordered by time and sequence number, and ids only
// index messages and parts.
func (s *sim) reuse(spare *[]int32, tr *traffic, src, dst int32, size int64) int32 {
	n := len(*spare)
	if n == 0 || !s.refill(tr, (*spare)[n-1], src, dst, size) {
		return -1
	}
	m := (*spare)[n-1]
	*spare = (*spare)[:n-1]
	return m
}

// refill makes message m, which its sender and receiver are done with,
// a message of size bytes from src to dst in its place, and tells
// whether it could: m must split into as many parts as before.
func (s *sim) refill(tr *traffic, m, src, dst int32, size int64) bool {
	msg := &s.msgs[m]
	same := msg.size == size // then as many parts, of the same sizes (one tr a run)
	if !same && int64(msg.parts) != tr.parts(size) {
		return false
	}
	*msg = message{src: src, dst: dst, size: size, part0: msg.part0, parts: msg.parts}
	if !same {
		s.setParts(tr, m)
		return true
	}
	// Parts of as many bytes as before (as every message of an open-loop
	// pattern has) keep what setParts derives from the size.
	for j := msg.part0; j < msg.part0+msg.parts; j++ {
		pt := &s.parts[j]
		*pt = part{msg: m, src: src, dst: dst, j: pt.j, link: pt.link, npk: pt.npk, bytes: pt.bytes, last: pt.last}
	}
	return true
}

// setParts writes message m's parts, s.parts[part0:part0+parts], from
// its size, source and destination.
func (s *sim) setParts(tr *traffic, m int32) {
	msg := &s.msgs[m]
	src, dst, size, nparts := msg.src, msg.dst, msg.size, int64(msg.parts)
	b := tr.payload
	total := int64(1) // packets of the whole message
	if b > 0 && size > 0 {
		total = (size + b - 1) / b
	}
	// Whole-message packets, or fewer packets than parts: the bytes are
	// split evenly, one packet a part.
	even := b == 0 || total < nparts
	var off int64
	for j := range nparts {
		var payload int64
		if even {
			payload = size/nparts + btoi(j < size%nparts)
		} else {
			pk := total/nparts + btoi(j < total%nparts)
			payload = min(pk*b, size-off)
		}
		off += payload
		pt := part{msg: m, src: src, dst: dst, j: int32(j), link: int32(j / int64(tr.channels)), npk: 1, bytes: payload, last: payload}
		if b > 0 && payload > b {
			pt.npk = int32((payload + b - 1) / b)
			pt.bytes, pt.last = b, payload-int64(pt.npk-1)*b
		}
		if tr.circuit { // one stream carrying every packet's header and trailer
			pt.last = payload + int64(pt.npk-1)*tr.hdrTail
			pt.npk, pt.bytes = 1, pt.last
		}
		s.parts[msg.part0+int32(j)] = pt
	}
}

// reserve makes room for the messages and parts of a run of tr, as the
// budget counts them, so that the first run on a large network does not
// grow them by copies (later runs reuse the room).
func (s *sim) reserve(tr *traffic) {
	msgs := messagesPerRun(tr.op, int64(s.net.nprocs))
	parts := limits.Mul(msgs, tr.parts(tr.size))
	if msgs > int64(cap(s.msgs)) && msgs <= math.MaxInt32 {
		s.msgs = append(make([]message, 0, msgs), s.msgs...)
	}
	if parts > int64(cap(s.parts)) && parts <= math.MaxInt32 {
		s.parts = append(make([]part, 0, parts), s.parts...)
	}
}

func btoi(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// after makes message post wait until pre has been delivered.
func (s *sim) after(pre, post int32) {
	if pre < 0 || post < 0 {
		return
	}
	s.depPre = append(s.depPre, pre)
	s.depPost = append(s.depPost, post)
	s.msgs[post].deps++
}

// linkDeps turns the (pre, post) pairs into per-message dependent lists.
func (s *sim) linkDeps() {
	cnt := s.depCnt[:0]
	for range len(s.msgs) + 1 {
		cnt = append(cnt, 0)
	}
	s.depCnt = cnt
	for _, p := range s.depPre {
		cnt[p+1]++
	}
	for i := 1; i < len(cnt); i++ {
		cnt[i] += cnt[i-1]
	}
	s.depList = append(s.depList[:0], s.depPost...)
	for i, p := range s.depPre {
		s.depList[cnt[p]] = s.depPost[i]
		cnt[p]++
	}
	// cnt[i] now ends message i's list; shift back to get the starts.
	copy(cnt[1:], cnt[:len(cnt)-1])
	cnt[0] = 0
	for i := range s.msgs {
		s.msgs[i].dep0, s.msgs[i].dep1 = cnt[i], cnt[i+1]
	}
}

// build creates the messages of one run.
func (s *sim) build(tr *traffic) error {
	g := s.net.g
	P := s.net.nprocs
	proc := g.Proc
	size := tr.size
	logP := bits.Len(uint(P)) - 1
	pow2 := P > 0 && P&(P-1) == 0
	srcRank := g.Rank(tr.src)
	s.reserve(tr)
	switch tr.op {
	case "send":
		s.addMsg(tr, tr.src, tr.dst, size)
	case "pingpong":
		a := s.addMsg(tr, tr.src, tr.dst, size)
		s.after(a, s.addMsg(tr, tr.dst, tr.src, size))
	case "swap":
		s.addMsg(tr, tr.src, tr.dst, size)
		s.addMsg(tr, tr.dst, tr.src, size)
	case "shuffle", "transpose", "xmp-transpose", "bitcomp", "bitrev":
		if !pow2 {
			return fmt.Errorf("op %s needs a power-of-two number of processors, have %d", tr.op, P)
		}
		for r := range P {
			s.addMsg(tr, proc(r), proc(bitPermDest(tr.op, r, logP)), size)
		}
	case "randperm":
		perm := s.perm[:0]
		for i := range P {
			perm = append(perm, i)
		}
		s.perm = perm
		for i := P - 1; i > 0; i-- {
			j := s.rng.Intn(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		for r := range P {
			s.addMsg(tr, proc(r), proc(perm[r]), size)
		}
	case "uniform":
		if P < 2 {
			return nil
		}
		for r := range P {
			d := s.rng.Intn(P - 1)
			if d >= r {
				d++
			}
			s.addMsg(tr, proc(r), proc(d), size)
		}
	case "neighbor", "tornado":
		for r := range P {
			s.addMsg(tr, proc(r), proc(s.pattern(tr.op, r)), size)
		}
	case "hotspot":
		for r := range P {
			s.addMsg(tr, proc(r), tr.dst, size)
		}
	case advOp:
		if err := s.net.checkAdversarial(); err != nil {
			return err
		}
		for r := range P {
			s.addMsg(tr, proc(r), proc(s.adversarial(r)), size)
		}
	case "alltoall":
		order := s.perm[:0]
		for r := range P {
			order = order[:0]
			for d := range P {
				if d != r {
					order = append(order, d)
				}
			}
			for i := len(order) - 1; i > 0; i-- {
				j := s.rng.Intn(i + 1)
				order[i], order[j] = order[j], order[i]
			}
			for _, d := range order {
				s.addMsg(tr, proc(r), proc(d), size)
			}
		}
	case "exchange":
		for r := range P {
			if r^1 < P {
				s.addMsg(tr, proc(r), proc(r^1), size)
			}
		}
	case "scatter":
		for r := range P {
			s.addMsg(tr, tr.src, proc(r), size)
		}
	case "gather":
		for r := range P {
			s.addMsg(tr, proc(r), tr.src, size)
		}
	case "broadcast":
		if s.net.rk == rTree || s.net.rk == rAcyclic && s.net.treeOrder != nil {
			if err := s.treeBroadcast(tr, size); err != nil {
				return err
			}
		} else {
			s.broadcast(tr, srcRank, size, nil)
		}
	case "reduce":
		s.reduce(tr, srcRank, size)
	case "allreduce":
		s.broadcast(tr, srcRank, size, s.reduce(tr, srcRank, size))
	case "combine":
		if pow2 {
			s.dimensionExchange(tr, logP, size, false)
		} else {
			s.broadcast(tr, srcRank, size, s.reduce(tr, srcRank, size))
		}
	case "treebarrier":
		s.broadcast(tr, 0, size, s.reduce(tr, 0, size))
	case "barrier", "allgather":
		if pow2 && (tr.op == "allgather" || g.Kind() == topo.Hypercube) {
			s.dimensionExchange(tr, logP, size, tr.op == "allgather")
			return nil
		}
		if tr.op == "barrier" {
			s.broadcast(tr, 0, size, s.reduce(tr, 0, size))
		} else {
			pre := []int32{}
			for r := 1; r < P; r++ {
				pre = append(pre, s.addMsg(tr, proc(r), proc(0), size))
			}
			s.broadcast(tr, 0, size*int64(P), pre)
		}
	default:
		return unknownOp(tr.op)
	}
	return nil
}

// Ops lists the names of the operations Simulate runs, sorted.
func Ops() []string {
	return slices.Sorted(maps.Keys(ops))
}

// OpDoc describes the operation name in a line; ok is false when
// Simulate does not run it.
func OpDoc(name string) (doc string, ok bool) {
	doc, ok = ops[name]
	return doc, ok
}

func unknownOp(op string) error {
	return fmt.Errorf("unknown op %q (have %s)", op, strings.Join(Ops(), ", "))
}

// pattern gives the destination rank of neighbor and tornado traffic.
func (s *sim) pattern(op string, r int) int {
	g := s.net.g
	P := s.net.nprocs
	kind := g.Kind()
	if s.net.rankCore {
		kind = s.net.core.Kind // processors behind routers of that shape
	}
	switch kind {
	case topo.Hypercube:
		if op == "neighbor" {
			if P < 2 {
				return r // a 0-cube: no neighbour, no message
			}
			return r ^ 1
		}
		return (r + P/2 - 1 + P) % P
	case topo.Mesh, topo.Torus:
		if op == "neighbor" {
			k := int(s.net.dims[0])
			x := r % k
			switch {
			case x+1 < k:
				return r + 1
			case k == 1:
				return r // a side of one: no neighbour along it, no message
			case kind == topo.Torus:
				return r - x
			default:
				return r - 1
			}
		}
		out, stride := 0, 1
		for _, k32 := range s.net.dims {
			k := int(k32)
			x := r / stride % k
			out += (x + (k+1)/2 - 1) % k * stride
			stride *= k
		}
		return out
	}
	if side := flatFlyGrid(s.net); op == "tornado" && side > 0 {
		// BookSim's tornado on its flatfly: the terminals' 2-D grid
		// (k·xr a side, xr² = c terminals a router), ceil(side/2) - 1 on
		// along each axis.
		sh := (side+1)/2 - 1
		return (r%side+sh)%side + (r/side+sh)%side*side
	}
	if op == "neighbor" {
		v := g.Proc(r)
		for _, a := range g.Adj(v) {
			if g.Rank(a.Node) >= 0 {
				return g.Rank(a.Node)
			}
		}
		return (r + 1) % P
	}
	return (r + (P+1)/2 - 1) % P
}

// flatFlyGrid is the side of the terminals' grid of a 2-D flattened
// butterfly laid out as BookSim's flatfly (k routers a row, xr × xr
// terminals under each: topo.FlatFlyTerminal), 0 for any other network.
func flatFlyGrid(n *network) int {
	d := n.core.Dims
	if n.core.Kind != topo.FlatFly || len(d) < 3 || d[1] != 2 {
		return 0
	}
	xr := 1
	for xr*xr < d[2] {
		xr++
	}
	if xr*xr != d[2] || n.nprocs != d[0]*xr*d[0]*xr {
		return 0
	}
	return d[0] * xr
}

// broadcast sends down a binomial tree rooted at rank root; every message
// from the root's children onward waits for its sender to have received.
// The root's messages wait for all of pre.
func (s *sim) broadcast(tr *traffic, root int, size int64, pre []int32) {
	P := s.net.nprocs
	node := func(rel int) int32 { return s.net.g.Proc((rel + root) % P) }
	in := make([]int32, P) // message into each relative rank
	in[0] = -1
	top := 1
	for top < P {
		top <<= 1
	}
	// Relative rank v receives from v - lowbit(v); larger subtrees first.
	for step := top >> 1; step >= 1; step >>= 1 {
		for v := 0; v < P; v += 2 * step {
			c := v + step
			if c >= P {
				continue
			}
			m := s.addMsg(tr, node(v), node(c), size)
			in[c] = m
			if v == 0 {
				for _, p := range pre {
					s.after(p, m)
				}
			} else {
				s.after(in[v], m)
			}
		}
	}
}

// reduce sends up the binomial tree into rank root and returns the
// messages into the root.
func (s *sim) reduce(tr *traffic, root int, size int64) []int32 {
	P := s.net.nprocs
	node := func(rel int) int32 { return s.net.g.Proc((rel + root) % P) }
	out := make([]int32, P) // message out of each relative rank
	var kids [][]int32 = make([][]int32, P)
	for step := 1; step < P; step <<= 1 {
		for v := 0; v+step < P; v += 2 * step {
			c := v + step
			m := s.addMsg(tr, node(c), node(v), size)
			out[c] = m
			for _, k := range kids[c] {
				s.after(k, m)
			}
			kids[v] = append(kids[v], m)
		}
	}
	return kids[0]
}

// dimensionExchange is seed 004 Algorithm 1: in step i node m swaps a
// message with m xor 2^i once it has received step i-1's. For allgather
// the message doubles in size each step.
func (s *sim) dimensionExchange(tr *traffic, d int, size int64, grow bool) {
	P := s.net.nprocs
	prev := make([]int32, P) // message node m received in the last step
	cur := make([]int32, P)
	for i := range d {
		for m := range P {
			n := m ^ 1<<i
			msg := s.addMsg(tr, s.net.g.Proc(m), s.net.g.Proc(n), size)
			cur[n] = msg
			if i > 0 {
				s.after(prev[m], msg)
			}
		}
		prev, cur = cur, prev
		if grow {
			size *= 2
		}
	}
}

// treeBroadcast forwards the message down the routing's spanning tree:
// each processor sends to its nearest processor descendants (seed 003's
// static broadcast trees), once it has received.
func (s *sim) treeBroadcast(tr *traffic, size int64) error {
	n := s.net
	g := n.g
	for r := range n.nprocs {
		if v := g.Proc(r); n.depth[v] < 0 {
			return fmt.Errorf("no route from node %d to node %d", g.ID(n.treeRoot), g.ID(v))
		}
	}
	in := make(map[int32]int32) // message into each processor
	up := func(v int32) int32 { // nearest processor ancestor
		for v = n.parent[v]; v >= 0 && g.NodeKind(v) != topo.Processor; v = n.parent[v] {
		}
		return v
	}
	for _, v := range n.treeOrder[1:] {
		if g.NodeKind(v) != topo.Processor {
			continue
		}
		p := up(v)
		if p < 0 {
			continue
		}
		m := s.addMsg(tr, p, v, size)
		in[v] = m
		if pm, ok := in[p]; ok {
			s.after(pm, m)
		}
	}
	return nil
}
