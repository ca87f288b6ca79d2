package topo

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// BuildRecognized renumbers the graph it built in that graph's storage;
// the result must be the graph Build and then Recognize make, field for
// field, whether or not the ids are 0, 1, 2, … in order, with or without
// switches, and when nothing is recognised.
func TestBuildRecognizedEqualsBuildThenRecognize(t *testing.T) {
	cube, _ := Generate("hypercube", []int{4}, GenerateOptions{})
	torus, _ := Generate("torus", []int{4, 3}, GenerateOptions{})
	mesh, _ := Generate("mesh", []int{5, 2}, GenerateOptions{})
	tree, _ := Generate("tree", []int{2, 3}, GenerateOptions{})
	copyOf := func(g *Graph, ids []int, copies int) func(*Builder) {
		return func(b *Builder) {
			for v := range g.N() {
				b.Processor(ids[v])
			}
			for l := range int32(g.NumLinks()) {
				k := g.Link(l)
				for range copies {
					b.Link(LinkSpec{Members: []int{ids[k.B], ids[k.A]}, Dim: -1, Channels: 1 + int(l)%3})
				}
			}
		}
	}
	shuffled := func(n int) []int {
		ids := offsetIDs(n, 0)
		rng := NewRand(5)
		for i := n - 1; i > 0; i-- {
			j := rng.Intn(i + 1)
			ids[i], ids[j] = ids[j], ids[i]
		}
		return ids
	}
	switched := func(b *Builder) {
		for p := range 8 {
			b.Processor(p)
		}
		for s := range 4 {
			b.Switch(100 + s)
		}
		for p := range 8 {
			b.Connect(p, 100+p/2)
		}
		b.Connect(100, 101).Connect(101, 103).Connect(103, 102).Connect(102, 100)
		b.Link(LinkSpec{Members: []int{3}, IO: true})
	}
	for _, tc := range []struct {
		name  string
		build func(*Builder)
		found bool
	}{
		{"hypercube numbered 0, 1, 2, …", copyOf(cube, offsetIDs(16, 0), 1), true},
		{"hypercube numbered from 40", copyOf(cube, offsetIDs(16, 40), 2), true},
		{"hypercube numbered at random", copyOf(cube, shuffled(16), 1), true},
		{"torus numbered from 7", copyOf(torus, offsetIDs(12, 7), 1), true},
		{"mesh with doubled links", copyOf(mesh, offsetIDs(10, 0), 2), true},
		{"switches in a ring with processors attached", switched, true},
		{"tree", copyOf(tree, offsetIDs(tree.N(), 3), 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder()
			tc.build(b)
			g, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			want, wantOrder, ok := Recognize(g)
			if ok != tc.found {
				t.Fatalf("recognised %v, want %v", ok, tc.found)
			}
			b = NewBuilder()
			tc.build(b)
			got, order, err := b.BuildRecognized(true)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				wantOrder = nil
			}
			if !slices.Equal(order, wantOrder) {
				t.Errorf("order %v, want %v", order, wantOrder)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("graph\n%+v\nwant\n%+v", got, want)
			}
			b = NewBuilder()
			tc.build(b)
			plain, order, err := b.BuildRecognized(false)
			if err != nil || order != nil || plain.Core().Kind != Explicit {
				t.Errorf("without recognition: order %v, core %v, err %v", order, plain.Core().Kind, err)
			}
		})
	}
}

// The Builder maps ids to nodes without a map while they are 0, 1, 2, …
// in order, and by a map from the first that is not; either way a graph
// finds every node by its id and refuses the ids it does not have.
func TestBuilderFindsNodesByIdInAnyOrder(t *testing.T) {
	for _, ids := range [][]int{
		{0, 1, 2, 3},
		{0, 1, 2, 9, 3},
		{5, 0, 1, 2},
		{-1, 0, 1},
		{1, 0},
		{0, 1 << 40, 1},
	} {
		t.Run(fmt.Sprint(ids), func(t *testing.T) {
			b := NewBuilder()
			for i, id := range ids {
				b.Processor(id)
				if i > 0 {
					b.Connect(ids[i-1], id)
				}
			}
			g, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			for i, id := range ids {
				if v, ok := g.Index(id); !ok || v != int32(i) || g.ID(v) != id {
					t.Errorf("id %d: node %d %v, want %d", id, v, ok, i)
				}
			}
			for _, id := range []int{-2, len(ids), 7, 1 << 41} {
				if !slices.Contains(ids, id) {
					if v, ok := g.Index(id); ok {
						t.Errorf("id %d, not a node, found as node %d", id, v)
					}
				}
			}
		})
	}
}

// Every mistake is reported, with the link's number, whether the ids are
// 0, 1, 2, … in order or not and whatever the number of members.
func TestBuilderReportsEveryMistake(t *testing.T) {
	many := func(repeat bool) []int {
		ms := offsetIDs(40, 0)
		if repeat {
			ms[30] = 12
		}
		return ms
	}
	for _, tc := range []struct {
		name  string
		build func(*Builder)
		want  []string
	}{
		{"a node defined twice, ids in order", func(b *Builder) { b.Processor(0).Processor(1).Processor(1) }, []string{"node id 1 defined twice"}},
		{"a node defined twice, ids out of order", func(b *Builder) { b.Processor(4).Processor(1).Switch(4) }, []string{"node id 4 defined twice"}},
		{"a link to a node not added", func(b *Builder) { b.Processor(0).Processor(1).Connect(0, 1).Connect(1, 2) }, []string{"link 1 names unknown node 2"}},
		{"a negative id", func(b *Builder) { b.Processor(0).Processor(1).Connect(0, -1) }, []string{"link 0 names unknown node -1"}},
		{"a link from a node to itself", func(b *Builder) { b.Processor(0).Processor(1).Connect(1, 1) }, []string{"link 0 joins node 1 to itself"}},
		{"an unknown node twice on a link", func(b *Builder) {
			b.Processor(0).Link(LinkSpec{Members: []int{0, 8, 8}})
		}, []string{"link 0 names unknown node 8", "link 0 names unknown node 8"}},
		{"a repeated member of a short bus", func(b *Builder) {
			b.Processor(0).Processor(1).Processor(2).Link(LinkSpec{Members: []int{0, 1, 2, 1}})
		}, []string{"link 0 joins node 1 to itself"}},
		{"a repeated member of a long bus", func(b *Builder) {
			for id := range 40 {
				b.Processor(id)
			}
			b.Link(LinkSpec{Members: many(false)}).Link(LinkSpec{Members: many(true)}).Link(LinkSpec{Members: many(false)})
		}, []string{"link 1 joins node 12 to itself"}},
		{"a link of one member", func(b *Builder) { b.Processor(0).Link(LinkSpec{Members: []int{0}}) }, []string{"link 0 needs at least two members"}},
		{"too many channels", func(b *Builder) {
			b.Processor(0).Processor(1).Link(LinkSpec{Members: []int{0, 1}, Channels: MaxChannels + 1})
		}, []string{fmt.Sprintf("link 0 has %d channels", MaxChannels+1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder()
			tc.build(b)
			_, err := b.Build()
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("errors %q, want %q", lines, tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("error %q, want %q", lines[i], w)
				}
			}
		})
	}
}

// The members of a bus stay its own when more buses follow it: they are
// kept in one list for all the buses.
func TestBusesKeepTheirMembers(t *testing.T) {
	b := NewBuilder()
	for id := range 12 {
		b.Processor(id)
	}
	want := [][]int32{{0, 1, 2}, {3, 4, 5, 6}, {7, 8, 9, 10, 11}, {11, 0, 5}}
	for _, ms := range want {
		s := LinkSpec{Dim: -1}
		for _, v := range ms {
			s.Members = append(s.Members, int(v))
		}
		b.Link(s)
		b.Connect(int(ms[0]), int(ms[1]))
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for i, ms := range want {
		if got := g.Members(int32(2 * i)); !slices.Equal(got, ms) {
			t.Errorf("bus %d has members %v, want %v", i, got, ms)
		}
	}
}
