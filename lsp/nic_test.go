package lsp

import (
	"strings"
	"testing"
)

// A nic block is a block like a processor: completion offers the nic
// blocks after a processor's nic =, a nic block's fields at the start of
// a line in it and its labels in nic( … ); the name after nic = leads to
// its block; hover on a nic field gives the schema's line for it and its
// value.
func TestNICBlocksCompleteDefineAndHover(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "nic.machine")
	if d := c.open(uri, text); len(d) != 0 {
		t.Fatalf("nic.machine: %v, want no diagnostics", d)
	}
	for _, tt := range []struct {
		what, after, insert string
		want                []string
	}{
		{"the nic blocks after nic =", "\t\tsend_overhead = 1us\n", "\t\tnic = ", []string{"fast", "slow"}},
		{"a nic block's fields", "\t\tsend_gap = 4us\n", "\t\trecv", []string{"recv_gap", "recv_gap_per_byte", "recv_overhead_per_byte", "rendezvous"}},
		{"nic blocks in a reference", "\t\tspeed = 100MB/s\n\t}\n", "\tparam z = nic(", []string{"fast", "slow"}},
	} {
		at := strings.Index(text, tt.after) + len(tt.after)
		c.checkCompletion(t, uri, text, at, tt.what, tt.insert, tt.want)
	}
	c.change(uri, text, 3)
	var def []location
	c.call("textDocument/definition", at(uri, find(t, text, "nic = fast", 0, 7)), &def)
	if want := find(t, text, "fast {", 0, 0); len(def) != 1 || def[0].Range.Start != want {
		t.Errorf("definition of the nic a processor names = %+v, want the nic block's label at %+v", def, want)
	}
	if h := c.hover(uri, find(t, text, "send_gap = gap", 0, 1)); !strings.Contains(h, "`1us`") || !strings.Contains(h, "the NIC's time per message sent") {
		t.Errorf("hover on a nic block's send_gap = %q, want its value 1us and the schema's line", h)
	}
}
