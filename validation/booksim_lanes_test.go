package validation

import (
	"fmt"
	"testing"
)

// bookSimLanes sets Parasol's lanes, credits and ties (issue 27) beside
// BookSim 2 on std:booksim-mesh: the 8×8 mesh with 1, 2 and 4 virtual
// channels of 4 and 8 flits, uniform (self-addressed packets included,
// as BookSim's, by --self) and transpose, and the folded 8×8 torus with
// its two dateline VCs and ties split. Each row's BookSim figure is the
// mean of its printed "Packet latency average" over the seeds listed (and
// the accepted flit rate at an offered 0.9 for saturation), from
// bookSimLaneCurves' commands; Parasol's is the mean over the same seeds
// of sim --load.
func bookSimLanes(t *testing.T) section {
	s := section{
		Title: "Lanes, credits and ties beside BookSim 2 (issue 27)",
		Intro: "std:booksim-mesh with `vcs` lanes a wire sharing it flit by flit, `buffer` flits a lane under " +
			"credit flow control (`credit_delay = 3 * cycle`: BookSim's credit delay and a body flit's switch allocation " +
			"and traversal), dimension order splitting the ties half way round the torus, beside BookSim 2's input-queued " +
			"router with `num_vcs` and `vc_buf_size` set alike (docs/RUNTIME.md maps the rest). Latency is the mean packet " +
			"latency in cycles at a load (flits per node per cycle) given as a share of BookSim's saturation throughput, " +
			"which is the accepted flit rate at an offered 0.9 (the plateau; Parasol's likewise, `--load 0.9`). BookSim " +
			"figures are the means over the seeds named of its printed numbers (`booksim mesh.cfg num_vcs=V " +
			"vc_buf_size=B traffic=T seed=S injection_rate=L`, mesh.cfg as in docs/PERFORMANCE.md; the torus adds " +
			"`topology=torus routing_function=dim_order`); Parasol's the means over the same seeds. Latency is checked " +
			"within 10% up to 80% of BookSim's saturation (90% on the mesh where it holds), saturation within 10%; rows " +
			"outside are shown, not asserted, with the reason.",
	}
	for _, c := range bookSimLaneCurves {
		sets := []string{fmt.Sprintf("topology(%s).vcs=%d", c.topology, c.vcs), fmt.Sprintf("topology(%s).buffer=%d", c.topology, c.buf)}
		loads := make([]float64, 0, len(c.points)+1)
		for _, p := range c.points {
			loads = append(loads, p.load)
		}
		loads = append(loads, 0.9)
		lat := make([]float64, len(c.points))
		sat := 0.0
		for _, seed := range c.seeds {
			_, pts := seededCurve(t, c.topology, c.op, "", seed, c.op == "uniform", loads, sets...)
			for i := range c.points {
				lat[i] += pts[i].Latency.Mean / pts[i].Cycle / float64(len(c.seeds))
			}
			sat += pts[len(pts)-1].Accepted / float64(len(c.seeds))
		}
		name := "8×8 mesh"
		topo := ""
		if c.topology != "main" {
			name, topo = "8×8 "+c.topology, " --topology "+c.topology
		}
		self := ""
		if c.op == "uniform" {
			self = " --self"
		}
		cmd := fmt.Sprintf("sim std:booksim-mesh%s --op %s%s --size 32 --set 'topology(%s).vcs=%d' --set 'topology(%s).buffer=%d' --seed S --load L",
			topo, c.op, self, c.topology, c.vcs, c.topology, c.buf)
		seeds := fmt.Sprintf("seeds %v", c.seeds)
		for i, p := range c.points {
			r := row{Quantity: fmt.Sprintf("%s, %d VCs × %d flits, %s, load %g (%.0f%% of saturation): mean latency, %s", name, c.vcs, c.buf, c.op, p.load, 100*p.load/c.saturation, seeds),
				Seed: num(p.latency), SeedVal: p.latency, Value: lat[i], Unit: "cycles", Tol: 0.10, Cmd: cmd, Note: p.note}
			if p.note != "" {
				r.Tol = 0
			}
			s.Rows = append(s.Rows, check(t, r))
		}
		r := row{Quantity: fmt.Sprintf("%s, %d VCs × %d flits, %s: saturation throughput, %s", name, c.vcs, c.buf, c.op, seeds),
			Seed: num(c.saturation), SeedVal: c.saturation, Value: sat, Tol: 0.10, Cmd: cmd + " (L = 0.9)", Note: c.satNote}
		if c.satNote != "" {
			r.Tol = 0
		}
		s.Rows = append(s.Rows, check(t, r))
	}
	return s
}

// lanePoint is BookSim's mean packet latency at a load; note says why a
// row is not asserted.
type lanePoint struct {
	load, latency float64
	note          string
}
