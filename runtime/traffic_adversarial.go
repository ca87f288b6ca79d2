package runtime

import (
	"fmt"

	"github.com/parasol-lang/parasol/stdlib/topo"
)

// advOp is BookSim's bad_dragon as an operation: every message from a
// processor of group i goes to a random processor of group i+1 (mod g),
// so that minimal routing puts a whole group's traffic on the one global
// link between the two groups.
const advOp = "dragonfly-adversarial"

// advDest marks a rank whose open-loop messages go to a random processor
// of the next group (advOp), drawn per message.
const advDest = -3

// checkAdversarial refuses advOp off a dragonfly.
func (n *network) checkAdversarial() error {
	if n.core.Kind != topo.Dragonfly || n.core.Nodes == 0 {
		return fmt.Errorf("op %s needs a dragonfly topology (its groups); this one is %s", advOp, n.g.Kind())
	}
	return nil
}

// adversarial draws the destination rank of a message from rank r under
// advOp: a random processor of the next group. A dragonfly's processors
// are numbered router by router, p·a of them a group.
func (s *sim) adversarial(r int) int {
	d := s.net.core.Dims
	per := d[0] * d[1]
	G := r / per
	return (G+1)%d[3]*per + s.rng.Intn(per)
}
