package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
)

// MapRanks places ranks on the processors of the machine's topology
// and returns each rank's processor as an external node id, for
// ScheduleOptions.Map. ranks 0 means one rank per processor. how is
//
//   - "linear" (or ""): rank r on processor r mod P, P the processor count;
//   - "random": a random permutation of the processors drawn from seed,
//     repeated when there are more ranks than processors;
//   - a file: one processor id per line (blank lines and # comments
//     skipped), as many lines as ranks;
//   - an expression in rank and ranks (and the machine's params) giving
//     rank's processor index, 0 to P-1: "mod(rank * 2, ranks)".
//
// A string is a file when a file of that name exists. Several ranks may
// share a processor.
func MapRanks(m *Machine, ranks int, how string, seed uint64) ([]int, error) {
	t, err := m.programTopology(lang.Pos{})
	if err != nil {
		return nil, unwrapDep(err)
	}
	g := t.Graph
	P := g.NumProcs()
	if P == 0 {
		return nil, fmt.Errorf("machine %q has no processors to run ranks on", m.name)
	}
	if ranks == 0 {
		ranks = P
	}
	if ranks < 0 || ranks > MaxRanks {
		return nil, fmt.Errorf("%d ranks: the rank count is between 1 and %d", ranks, MaxRanks)
	}
	proc := func(k int) int { return g.ID(g.Proc(k)) }
	out := make([]int, ranks)
	switch how {
	case "", "linear":
		for r := range out {
			out[r] = proc(r % P)
		}
		return out, nil
	case "random":
		perm := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)).Perm(P)
		for r := range out {
			out[r] = proc(perm[r%P])
		}
		return out, nil
	}
	if st, err := os.Stat(how); err == nil && !st.IsDir() {
		return mapFile(m, how, out, P, proc)
	}
	return mapExpr(m, how, out, P, proc)
}

// mapFile reads one processor id per line.
func mapFile(m *Machine, path string, out []int, P int, proc func(int) int) ([]int, error) {
	data, err := ReadInput(path, m.MaxMemory())
	if err != nil {
		return nil, err
	}
	ids := map[int]bool{}
	for k := 0; k < P; k++ {
		ids[proc(k)] = true
	}
	src := lang.NewSource(path, string(data))
	var errs lang.Diagnostics
	r, off := 0, 0
	for _, line := range strings.Split(string(data), "\n") {
		start := off
		off += len(line) + 1
		text, _, _ := strings.Cut(line, "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		pos := src.PosAt(start + strings.Index(line, text))
		id, err := strconv.Atoi(text)
		switch {
		case err != nil:
			errs.Add(pos, "expected a processor id, got %s", lang.Excerpt(strconv.Quote(text)))
		case !ids[id]:
			errs.Add(pos, "%d is no processor of machine %q", id, m.name)
		case r < len(out):
			out[r] = id
		}
		r++
		if len(errs) >= 20 {
			break
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if r != len(out) {
		return nil, fmt.Errorf("%s places %d rank%s; the program runs on %d", path, r, plural(r), len(out))
	}
	return out, nil
}

// mapExpr evaluates a processor index for each rank.
func mapExpr(m *Machine, text string, out []int, P int, proc func(int) int) ([]int, error) {
	e, err := parser.ParseExpr("--map", text)
	if err != nil {
		return nil, err
	}
	var errs lang.Diagnostics
	res := newResolution(m.res)
	(&resolver{m: m, res: res, errs: &errs}).expr(e, &rscope{obj: m.root, locals: []string{"rank", "ranks"}})
	if err := errs.Err(); err != nil {
		return nil, err
	}
	ranksVal := lang.Num(float64(len(out)))
	n := 1
	sc := &scope{obj: m.root, nslots: &n, locals: map[string]local{
		"rank":  {slot: 0, known: true, kind: lang.Number},
		"ranks": {known: true, kind: lang.Number, konst: &ranksVal},
	}}
	ce, err := (&compiler{m: m, res: res}).compile(e, sc)
	if err != nil {
		return nil, unwrapDep(err)
	}
	fr := &frame{stack: make([]lang.Value, n+64)}
	for r := range out {
		fr.base, fr.depth, fr.steps = 0, 0, 0
		fr.stack[0] = lang.Num(float64(r))
		v := ce.run(fr)
		if fr.err != nil {
			return nil, fr.err
		}
		if v.Kind != lang.Number || v.Dim != (lang.Dim{}) || v.Num != math.Trunc(v.Num) || v.Num < 0 || v.Num >= float64(P) {
			return nil, lang.Errorf(lang.Start(e), "--map gives rank %d %s; it must give a processor index from 0 to %d", r, describeValue(v), P-1).Span(lang.End(e))
		}
		out[r] = proc(int(v.Num))
	}
	return out, nil
}

// programTopology is the topology whose processors ranks run on: the
// machine's (WithTopology's, else the first).
func (m *Machine) programTopology(pos lang.Pos) (*Topology, error) {
	if len(m.topos) == 0 && len(m.root.childrenOf("topology")) == 0 {
		return nil, lang.Errorf(pos, "machine %q has no topology, so no processors to run ranks on", m.name)
	}
	return m.mainTopology(pos)
}
