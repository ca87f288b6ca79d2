package topo

import (
	"reflect"
	"strings"
	"testing"
)

// TestStarIsTheGraphItsLoopBuilds: star(n) is the graph a Builder makes of
// processors 0..n-1, the switch n and the links i -- n in order (what
// std:loggp's loop of links built before it had a generator), recognised
// or not, down to its arrays; and Hub finds its switch, so that routing
// follows the rule.
func TestStarIsTheGraphItsLoopBuilds(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 4, 5, 1000} {
		b := NewBuilder()
		for i := range n {
			b.Processor(i)
		}
		b.Switch(n)
		for i := range n {
			b.Connect(i, n)
		}
		want, _, err := b.BuildRecognized(true)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Generate("star", []int{n}, GenerateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want.memo, got.memo = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("star(%d) = %+v, the loop builds %+v", n, got, want)
		}
		if hub, ok := got.Hub(); n > 2 && (!ok || hub != int32(n)) {
			t.Errorf("star(%d): Hub() = %d, %v; want %d, true", n, hub, ok, n)
		}
	}
	if _, err := Generate("star", []int{-1}, GenerateOptions{}); err == nil || !strings.Contains(err.Error(), "star(-1): the number of processors must be at least 0") {
		t.Errorf("star(-1): error %v", err)
	}
}
