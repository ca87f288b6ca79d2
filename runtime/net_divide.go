package runtime

import "math/bits"

// divider divides 32-bit numbers by a fixed divisor with multiplications
// instead of a division instruction, which takes tens of cycles: routing on
// a torus takes a node's coordinates twice a hop. The method is Lemire,
// Kaser and Kurz's ("Faster remainder by direct computation", 2019), exact
// for every 32-bit numerator and divisor.
type divider struct {
	m uint64 // ⌈2⁶⁴ / d⌉ (0 for d = 1)
	d uint32
}

func newDivider(d uint32) divider {
	return divider{m: ^uint64(0)/uint64(d) + 1, d: d}
}

func (v divider) div(n uint32) uint32 {
	if v.d == 1 {
		return n
	}
	hi, _ := bits.Mul64(v.m, uint64(n))
	return uint32(hi)
}

func (v divider) mod(n uint32) uint32 {
	hi, _ := bits.Mul64(v.m*uint64(n), uint64(v.d))
	return uint32(hi)
}

// axis is one dimension of a mesh or torus: its side, the distance
// between neighbours along it in node numbers, and dividers by both.
type axis struct {
	k, stride     int32
	byK, byStride divider
}

func newAxes(dims []int32) []axis {
	out := make([]axis, len(dims))
	stride := int32(1)
	for d, k := range dims {
		out[d] = axis{k: k, stride: stride, byK: newDivider(uint32(k)), byStride: newDivider(uint32(stride))}
		stride *= k
	}
	return out
}

// coord is node v's coordinate along the axis.
func (a *axis) coord(v int32) int32 {
	return int32(a.byK.mod(a.byStride.div(uint32(v))))
}
