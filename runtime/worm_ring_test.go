package runtime

import "testing"

// A packet's held lanes read back the same whether they sit in its inline
// ring or have spilled to its list, however the worm grows and drains.
func TestPacketHopsReadBackThroughRingAndSpill(t *testing.T) {
	cases := []struct {
		name string
		// steps: a positive number acquires that many lanes, a negative
		// one releases that many from the tail.
		steps   []int
		spilled bool
	}{
		{"short worm", []int{3, -1, 2, -2, 1}, false},
		{"worm as long as the ring", []int{ringHops, -ringHops, ringHops}, false},
		{"worm that outgrows the ring", []int{ringHops + 1}, true},
		{"flowing worm over a long path", []int{4, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1}, false},
		{"spilled worm that drains and grows", []int{ringHops + 3, -ringHops, 2 * ringHops, -3 * ringHops, 50}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p packet
			var ref []hop // every lane of the path
			for _, n := range c.steps {
				for ; n > 0; n-- {
					h := hop{end: float64(len(ref)) * 1.5, ch: int32(100 + len(ref))}
					ref = append(ref, h)
					p.addHop(h)
				}
				p.tail = min(p.tail-int32(n), p.nhops)
				if p.nhops != int32(len(ref)) {
					t.Fatalf("%d lanes acquired, want %d", p.nhops, len(ref))
				}
				for i := p.tail; i < p.nhops; i++ {
					if got := *p.hop(i); got != ref[i] {
						t.Fatalf("lane %d of the path is %+v, want %+v", i, got, ref[i])
					}
				}
			}
			if p.spilled != c.spilled {
				t.Errorf("spilled = %v, want %v", p.spilled, c.spilled)
			}
		})
	}
}
