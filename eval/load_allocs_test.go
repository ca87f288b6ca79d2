package eval

import "testing"

// Loading a machine of explicit links allocates less than once per link,
// in both syntaxes, whatever the file's size: the records a link needs are
// cut from slabs and lists made at their size, so a single per-link map,
// closure, node, scope or copied string would show here.
// The figure is the growth from a machine of n links to one of 2n, so that
// what every load allocates once does not count.
func TestLoadingAllocatesLessThanOncePerLink(t *testing.T) {
	if testing.Short() {
		t.Skip("loads machines of thousands of links")
	}
	const n = 2000
	const most = 0.5 // allocations per link; both syntaxes take about 0.1
	for _, tc := range []struct {
		name   string
		legacy bool
	}{{"modern", false}, {"Parasol I", true}} {
		t.Run(tc.name, func(t *testing.T) {
			allocs := func(links int) float64 {
				src := genLinks(links, tc.legacy)
				return testing.AllocsPerRun(2, func() {
					m, err := LoadSource("big.machine", src)
					if err != nil {
						t.Fatal(err)
					}
					if got := m.Topologies()[0].Graph.NumLinks(); got != links {
						t.Fatalf("%d links, want %d", got, links)
					}
				})
			}
			small, large := allocs(n), allocs(2*n)
			if per := (large - small) / n; per > most {
				t.Errorf("%.1f allocations per link (%.0f for %d links, %.0f for %d); want at most %.1f", per, small, n, large, 2*n, most)
			} else {
				t.Logf("%.2f allocations per link", per)
			}
		})
	}
}
