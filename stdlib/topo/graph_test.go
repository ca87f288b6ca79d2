package topo

import "testing"

// TestLinkFieldsWithoutCopy holds LinkDim and Away to the Link they read:
// Away is 0 from a link's end A and 1 from its end B, and 0 from every
// member of a link of more than two (a bus has one direction).
func TestLinkFieldsWithoutCopy(t *testing.T) {
	b := NewBuilder().Processor(0).Processor(1).Processor(2).Switch(3)
	b.Link(LinkSpec{Members: []int{0, 3}, Dim: 4})
	b.Link(LinkSpec{Members: []int{3, 1}, Dim: -1})
	b.Link(LinkSpec{Members: []int{0, 1, 2}, Dim: 2})
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	idx := func(id int) int32 {
		v, ok := g.Index(id)
		if !ok {
			t.Fatalf("no node %d", id)
		}
		return v
	}
	for l, want := range []struct {
		dim      int32
		from, to int // ids of the ends A and B as built
	}{{4, 0, 3}, {-1, 3, 1}} {
		if d := g.LinkDim(int32(l)); d != want.dim {
			t.Errorf("LinkDim(%d) = %d, want %d", l, d, want.dim)
		}
		if a := g.Away(int32(l), idx(want.from)); a != 0 {
			t.Errorf("Away(%d, end A) = %d, want 0", l, a)
		}
		if a := g.Away(int32(l), idx(want.to)); a != 1 {
			t.Errorf("Away(%d, end B) = %d, want 1", l, a)
		}
	}
	if d := g.LinkDim(2); d != 2 {
		t.Errorf("LinkDim(bus) = %d, want 2", d)
	}
	for id := range 3 {
		if a := g.Away(2, idx(id)); a != 0 {
			t.Errorf("Away(bus, node %d) = %d, want 0", id, a)
		}
	}
}
