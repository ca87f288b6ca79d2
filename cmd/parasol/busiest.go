package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/parasol-lang/parasol/runtime"
)

// busiestWiresShown is how many wires sim --link-loads lists as text.
const busiestWiresShown = 5

// printBusiestWires lists the busiest wires of a --link-loads result,
// busiest first (ties in link order).
func printBusiestWires(w io.Writer, links []runtime.LinkLoad) {
	var busy []runtime.LinkLoad
	for _, ll := range links {
		if ll.Util > 0 {
			busy = append(busy, ll)
		}
	}
	if len(links) == 0 {
		return
	}
	sort.SliceStable(busy, func(i, j int) bool { return busy[i].Util > busy[j].Util })
	fmt.Fprintf(w, "busiest wires (of %d; parasol draw --sim-result shows them all)\n", len(links))
	if len(busy) == 0 {
		fmt.Fprintln(w, "  every wire idle")
	}
	for _, ll := range busy[:min(len(busy), busiestWiresShown)] {
		wire := fmt.Sprintf("%d→%d", ll.From, ll.To)
		if ll.To < 0 {
			wire = "bus"
		}
		fmt.Fprintf(w, "  link %d (%s): %s message%s, %.1f%% busy\n", ll.Link, wire,
			strconv.FormatFloat(ll.Load, 'g', 4, 64), plural(int(ll.Load+0.5)), 100*ll.Util)
	}
}
