package parser

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/parasol-lang/parasol/lang"
)

// A Parasol I link block held in a piece has positions that point at its
// chunk's copy of the source, within the chunk (so the collector passes
// over them), and that read as positions in the file do: the same name,
// line and snippet, and the same source by Same.
func TestLinkPiecePositionsPointWithinTheirChunk(t *testing.T) {
	var b strings.Builder
	b.WriteString("machinename = \"m\"\ntopology = 100\n")
	const links = 2*linkChunkLinks + 5 // three chunks
	for i := range links {
		fmt.Fprintf(&b, "linknumber = %d\nlinkio = 0\nlinklatency = 230\nlinkspeed = 2667231\nprocs_connected = 2\nprocessortype0 = 1\nprocessornumber = %d\nprocessortype1 = 1\nprocessornumber = %d\n", i, i, i+1)
	}
	file, err := ParseFile("big.machine", b.String())
	if err != nil {
		t.Fatal(err)
	}
	src := file.Src
	topo := file.Stmts[0].(*lang.Machine).Body[0].(*lang.Block)
	if len(topo.Body) != links {
		t.Fatalf("%d links, want %d", len(topo.Body), links)
	}
	copies := map[*lang.Source]bool{}
	for i, s := range topo.Body {
		blk := s.(*lang.Block)
		line := 3 + 9*i
		f := blk.Body[1].(*lang.Field) // linklatency
		lit := f.Value.(*lang.NumberLit)
		for _, p := range []lang.Pos{blk.Pos, blk.LabelPos, f.Pos, lit.Pos} {
			if p.Src == src || !p.Src.Same(src) {
				t.Fatalf("link %d: position %v points at %p, want a copy of the file's source %p", i, p, p.Src, src)
			}
			if d := uintptr(unsafe.Pointer(blk)) - uintptr(unsafe.Pointer(p.Src)); d >= unsafe.Sizeof(linkChunk{}) {
				t.Fatalf("link %d: its source copy lies %d bytes before it, outside its chunk", i, d)
			}
		}
		copies[blk.Pos.Src] = true
		if got, want := lang.PosString(f.Pos), fmt.Sprintf("big.machine:%d:1", line+2); got != want {
			t.Errorf("link %d: linklatency at %s, want %s", i, got, want)
		}
		if got := f.Pos.Src.Line(f.Pos.Line); got != "linklatency = 230" {
			t.Errorf("link %d: its line reads %q", i, got)
		}
	}
	if len(copies) != 3 {
		t.Errorf("%d copies of the source, want one per chunk (3)", len(copies))
	}
}
