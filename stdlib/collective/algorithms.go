package collective

import (
	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
)

// The algorithms, on relative ranks v = (r - root) mod P. Each emits rank
// e.r's operations; "prev" chains a step to the receive of the step before
// (a rank forwards only what it has), while the send and the receive of
// one step are independent (both posted at once, as with MPI_Sendrecv).

// dissemination: in round k rank v sends to v + 2^k and receives from
// v - 2^k (Hensgen, Finkel and Manber), ceil(log2 P) rounds on any P.
func dissemination(e *emitter, c *lang.Collective, _ int) error {
	prev := int32(-1)
	for d := 1; d < e.P; d <<= 1 {
		e.send(e.v+d, c.Bytes, prev)
		prev = e.recv(e.v-d, c.Bytes, prev)
	}
	return nil
}

// dimensionBarrier is seed 004 Algorithm 1: in step i rank v exchanges a
// message with v xor 2^i, a hypercube neighbour when ranks are labels.
func dimensionBarrier(e *emitter, c *lang.Collective, _ int) error {
	if err := needPow2(e.P); err != nil {
		return err
	}
	prev := int32(-1)
	for d := 1; d < e.P; d <<= 1 {
		e.send(e.v^d, c.Bytes, prev)
		prev = e.recv(e.v^d, c.Bytes, prev)
	}
	return nil
}

// treeBarrier: a binomial fan-in to rank 0, then a binomial fan-out.
func treeBarrier(e *emitter, c *lang.Collective, _ int) error {
	binomialBcastOps(e, c.Bytes, binomialReduceOps(e, c.Bytes, nil))
	return nil
}

func binomialBcast(e *emitter, c *lang.Collective, _ int) error {
	binomialBcastOps(e, c.Bytes, nil)
	return nil
}

// binomialBcastOps: v receives from its parent (v without its lowest set
// bit), then sends to its children v + 2^k for 2^k below that bit, the
// largest subtree first (MPICH's order). It returns the operations the
// next phase waits for.
func binomialBcastOps(e *emitter, bytes int64, after []int32) []int32 {
	mask := 1
	for mask < e.P && e.v&mask == 0 {
		mask <<= 1
	}
	var last []int32
	var from []int32
	if e.v != 0 {
		rc := e.recv(e.v-mask, bytes, after...)
		from = []int32{rc}
		last = append(last, rc)
	} else {
		from = after
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		if e.v+mask < e.P {
			last = append(last, e.send(e.v+mask, bytes, from...))
		}
	}
	if len(last) == 0 {
		return after
	}
	return last
}

// binomialReduceOps is the mirror of binomialBcastOps: v receives from its
// children, then sends to its parent.
func binomialReduceOps(e *emitter, bytes int64, after []int32) []int32 {
	var recvs []int32
	mask := 1
	for ; mask < e.P; mask <<= 1 {
		if e.v&mask != 0 {
			break
		}
		if e.v+mask < e.P {
			recvs = append(recvs, e.recv(e.v+mask, bytes, after...))
		}
	}
	if e.v == 0 {
		if len(recvs) == 0 {
			return after
		}
		return recvs
	}
	if len(recvs) == 0 {
		recvs = after
	}
	return []int32{e.send(e.v-mask, bytes, recvs...)}
}

func binomialReduce(e *emitter, c *lang.Collective, _ int) error {
	binomialReduceOps(e, c.Bytes, nil)
	return nil
}

// linearBcast: the root sends to every other rank in turn.
func linearBcast(e *emitter, c *lang.Collective, _ int) error {
	if e.v == 0 {
		for u := 1; u < e.P; u++ {
			e.send(u, c.Bytes)
		}
	} else {
		e.recv(0, c.Bytes)
	}
	return nil
}

// linearReduce: every other rank sends to the root.
func linearReduce(e *emitter, c *lang.Collective, _ int) error {
	if e.v == 0 {
		for u := 1; u < e.P; u++ {
			e.recv(u, c.Bytes)
		}
	} else {
		e.send(0, c.Bytes)
	}
	return nil
}

// pipelineBcast: a chain from the root through v = 1, 2, …, P-1, the
// message cut into segments of e.seg bytes; v forwards segment j as soon
// as it has it.
func pipelineBcast(e *emitter, c *lang.Collective, _ int) error {
	n := max(1, c.Bytes/e.seg+min(1, c.Bytes%e.seg))
	if err := e.room(limits.Mul(2, n)); err != nil {
		return err
	}
	prev := int32(-1)
	for j := range n {
		sz := min(e.seg, c.Bytes-j*e.seg)
		if n == 1 {
			sz = c.Bytes
		}
		rc := int32(-1)
		if e.v > 0 {
			rc = e.recv(e.v-1, sz, prev)
			prev = rc
		}
		if e.v < e.P-1 {
			e.send(e.v+1, sz, rc)
		}
	}
	return nil
}

// block is the size of block i when n bytes are cut into P blocks.
func block(n int64, P, i int) int64 {
	b := n / int64(P)
	if int64(i) < n%int64(P) {
		b++
	}
	return b
}

func mod(a, P int) int { return (a%P + P) % P }

// ringAllreduce: a reduce-scatter then an allgather around the ring, each
// P-1 steps of one block (n/P bytes) to v+1 and from v-1.
func ringAllreduce(e *emitter, c *lang.Collective, _ int) error {
	prev := int32(-1)
	for k := range e.P - 1 {
		e.send(e.v+1, block(c.Bytes, e.P, mod(e.v-k, e.P)), prev)
		prev = e.recv(e.v-1, block(c.Bytes, e.P, mod(e.v-1-k, e.P)), prev)
	}
	for k := range e.P - 1 {
		e.send(e.v+1, block(c.Bytes, e.P, mod(e.v+1-k, e.P)), prev)
		prev = e.recv(e.v-1, block(c.Bytes, e.P, mod(e.v-k, e.P)), prev)
	}
	return nil
}

// doublingAllreduce: recursive doubling, full vectors exchanged with
// v xor 2^k. On P not a power of two (P = p + rem, p a power of two), the
// first 2·rem ranks pair up first: each even one hands its vector to the
// odd one above and gets the result back at the end (MPICH's scheme).
func doublingAllreduce(e *emitter, c *lang.Collective, _ int) error {
	p := 1
	for p*2 <= e.P {
		p *= 2
	}
	rem := e.P - p
	n := c.Bytes
	prev := int32(-1)
	newRank := e.v - rem
	if e.v < 2*rem {
		if e.v%2 == 0 {
			e.send(e.v+1, n)
			e.recv(e.v+1, n)
			return nil
		}
		prev = e.recv(e.v-1, n)
		newRank = e.v / 2
	}
	for mask := 1; mask < p; mask <<= 1 {
		np := newRank ^ mask
		partner := np + rem
		if np < rem {
			partner = 2*np + 1
		}
		e.send(partner, n, prev)
		prev = e.recv(partner, n, prev)
	}
	if e.v < 2*rem {
		e.send(e.v-1, n, prev)
	}
	return nil
}

// reduceBcast: a binomial reduce to the root, then a binomial broadcast.
func reduceBcast(e *emitter, c *lang.Collective, _ int) error {
	binomialBcastOps(e, c.Bytes, binomialReduceOps(e, c.Bytes, nil))
	return nil
}

// ringAllgather: P-1 steps, each passing one rank's block to v+1.
func ringAllgather(e *emitter, c *lang.Collective, _ int) error {
	prev := int32(-1)
	for range e.P - 1 {
		e.send(e.v+1, c.Bytes, prev)
		prev = e.recv(e.v-1, c.Bytes, prev)
	}
	return nil
}

// doublingAllgather: in step k rank v swaps the 2^k blocks it has with
// v xor 2^k.
func doublingAllgather(e *emitter, c *lang.Collective, _ int) error {
	if err := needPow2(e.P); err != nil {
		return err
	}
	prev := int32(-1)
	for mask := 1; mask < e.P; mask <<= 1 {
		e.send(e.v^mask, c.Bytes*int64(mask), prev)
		prev = e.recv(e.v^mask, c.Bytes*int64(mask), prev)
	}
	return nil
}

// pairwiseAlltoall: in step k (1..P-1) rank v sends its block for v+k and
// receives v-k's block for it, one step after the other.
func pairwiseAlltoall(e *emitter, c *lang.Collective, _ int) error {
	prev := int32(-1)
	for k := 1; k < e.P; k++ {
		e.send(e.v+k, c.Bytes, prev)
		prev = e.recv(e.v-k, c.Bytes, prev)
	}
	return nil
}

// linearAlltoall: every receive posted at once, then every send (v+1,
// v+2, …) at once, as with MPI_Irecv/MPI_Isend and one wait.
func linearAlltoall(e *emitter, c *lang.Collective, _ int) error {
	for k := 1; k < e.P; k++ {
		e.recv(e.v-k, c.Bytes)
	}
	for k := 1; k < e.P; k++ {
		e.send(e.v+k, c.Bytes)
	}
	return nil
}

// linearScatter: the root sends each rank its block in turn.
func linearScatter(e *emitter, c *lang.Collective, r int) error {
	return linearBcast(e, c, r)
}

// linearGather: every rank sends its block to the root.
func linearGather(e *emitter, c *lang.Collective, r int) error {
	return linearReduce(e, c, r)
}

// subtree is how many ranks the binomial subtree rooted at v spans.
func subtree(v, P int) int { return min(lowBit(v, P), P-v) }

// binomialScatter: v receives the blocks of its whole subtree from its
// parent and passes each child its subtree's blocks, largest first.
func binomialScatter(e *emitter, c *lang.Collective, _ int) error {
	mask := 1
	for mask < e.P && e.v&mask == 0 {
		mask <<= 1
	}
	rc := int32(-1)
	if e.v != 0 {
		rc = e.recv(e.v-mask, c.Bytes*int64(subtree(e.v, e.P)), rc)
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		if ch := e.v + mask; ch < e.P {
			e.send(ch, c.Bytes*int64(subtree(ch, e.P)), rc)
		}
	}
	return nil
}

// binomialGather: the mirror of binomialScatter.
func binomialGather(e *emitter, c *lang.Collective, _ int) error {
	var recvs []int32
	mask := 1
	for ; mask < e.P; mask <<= 1 {
		if e.v&mask != 0 {
			break
		}
		if ch := e.v + mask; ch < e.P {
			recvs = append(recvs, e.recv(ch, c.Bytes*int64(subtree(ch, e.P))))
		}
	}
	if e.v != 0 {
		e.send(e.v-mask, c.Bytes*int64(subtree(e.v, e.P)), recvs...)
	}
	return nil
}
