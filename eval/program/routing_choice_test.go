package program

import (
	"context"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
)

// meshMachine is a 2 × 2 mesh (node x + 2y), store and forward, 100 MB/s
// (10 ns a byte) and 10 ns a link, whole messages as packets and no CPU
// costs: a message of n bytes crosses a link in 10n + 10 ns.
const meshMachine = `machine "m" {
	processor pe { }
	topology t = mesh(2, 2) {
		latency = 10ns
		speed = 100MB/s
		switching = saf
		routing = shortest
	}
}`

// A send names its message's routing (seed 003: TINY's SEND routes a
// message sequentially, SSEQ quasiadaptively). Rank 0 sends 10,000 B to
// rank 1, which holds the link 0→1 for 100 µs, then 100 B to rank 3. The
// machine's routing (shortest: dimension order, x first) and xy take
// 0→1→3: the message waits for the link until 100 µs, then 1.01 µs a
// hop: 102.02 µs. first-ready and short-queue take the other minimal
// link, 0→2→3, at once: 2.02 µs. Computed by hand above; 1 ps of rounding.
func TestASendTakesTheRoutingItNames(t *testing.T) {
	m, err := eval.LoadSource("mesh.machine", meshMachine)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		routing string
		want    float64
	}{
		{"", 102.02e-6},
		{", routing: xy", 102.02e-6},
		{", routing: shortest", 102.02e-6},
		{", routing: first-ready", 2.02e-6},
		{", routing: short-queue", 2.02e-6},
	} {
		p, err := eval.ParseProgramBody(m, `if rank == 0 { send(10000B, to: 1) send(100B, to: 3`+tc.routing+`) } else if rank == 1 { recv(from: 0) } else if rank == 3 { recv(from: 0) }`)
		if err != nil {
			t.Fatal(err)
		}
		s, err := p.Schedule(m, eval.ScheduleOptions{Ranks: 4})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), m, s, RunOptions{Simulated: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Simulated.Ranks[3].End; !near(got, tc.want, 1e-8) {
			t.Errorf("send(100B, to: 3%s): rank 3 ends at %g s, want %g s", tc.routing, got, tc.want)
		}
		if got := res.Simulated.Ranks[1].End; !near(got, 100.01e-6, 1e-8) {
			t.Errorf("send(100B, to: 3%s): rank 1 ends at %g s, want 100.01 µs", tc.routing, got)
		}
	}
}

// A routing a send names is the registry's: a misspelt one is an error at
// its place with a suggestion, and one the topology cannot take (e-cube
// needs a hypercube) is refused when the program is compiled.
func TestASendsRoutingIsChecked(t *testing.T) {
	m, err := eval.LoadSource("mesh.machine", meshMachine)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ body, want string }{
		{`send(8B, to: 1, routing: frist-ready)`, `1:26: unknown routing frist-ready (did you mean "first-ready"?)`},
		{`send(8B, to: 1, routing: ecube)`, `1:26: send: the topology cannot take routing ecube: needs a hypercube; this topology is mesh(2, 2)`},
		{`send(8B, to: 1, routing: xy, routing: xy)`, `1:30: routing: is given twice`},
		{`send(8B, to: 1, routing: 3)`, `1:26: routing: takes the name of a routing`},
	} {
		_, err := eval.ParseProgramBody(m, tc.body)
		if err == nil {
			var p *eval.Program
			if p, err = eval.ParseProgramBody(m, tc.body); err == nil {
				_, err = p.Schedule(m, eval.ScheduleOptions{Ranks: 4})
			}
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.body, err, tc.want)
		}
	}
}
