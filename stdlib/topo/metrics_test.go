package topo

import (
	"slices"
	"testing"
)

// TestProcDistancesAreEachProcessorsSearchKeptWithTheGraph: the tables
// are one breadth-first search per processor, computed once: a second call
// returns the same tables, another graph gets its own.
func TestProcDistancesAreEachProcessorsSearchKeptWithTheGraph(t *testing.T) {
	g, err := NewHamiltonian(40, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	dist := g.ProcDistances()
	if len(dist) != g.NumProcs() {
		t.Fatalf("%d tables, want one per processor (%d)", len(dist), g.NumProcs())
	}
	for r := range dist {
		if want := g.BFS(g.Proc(r)); !slices.Equal(dist[r], want) {
			t.Errorf("processor %d: %v, want %v", r, dist[r], want)
		}
	}
	if again := g.ProcDistances(); &again[0] != &dist[0] {
		t.Error("a second call computed the tables again")
	}
	h, err := NewHamiltonian(40, 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	if other := h.ProcDistances(); &other[0] == &dist[0] {
		t.Error("another graph got the first one's tables")
	}
}
