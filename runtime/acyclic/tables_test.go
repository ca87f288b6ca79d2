package acyclic

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// Reproduction of seed 003, Tables 3.1–3.3 (§3.4.3): every processor sends
// one message to every other; μ is the mean path length over all P² ordered
// pairs (self pairs count 0: this is what makes the tables' ring and torus
// values n/4 and k/2 exact), D the longest path, L_p the most messages
// through-routed by one processor (neither source nor destination), L_l the
// most messages over one channel. The loads come from replaying the
// simulation §3.4.3 describes (func queued). The unprimed rows use shortest
// path routing, the primed rows this package's Improved variant (its μ′ and
// D′ match the tables; Plain is printed alongside), double rings with their
// parallel links merged as two ordered components (rule C′, Options.Merge),
// which is the only reading under which μ′ = μ and D′ = D as Table 3.1 and
// its text state.
//
// Run: go test -run TestTables -v ./runtime/acyclic

// seedVal is a table entry: value ± spread; skip explains an entry the
// test does not assert.
type seedVal struct {
	v, spread float64
	skip      string
}

type seedRow struct {
	table, family string
	p             int
	cyc, acy      [4]seedVal // μ, D, L_p, L_l and μ′, D′, L′_p, L′_l
}

func ex(v float64) seedVal                      { return seedVal{v: v} }
func pm(v, s float64) seedVal                   { return seedVal{v: v, spread: s} }
func contradicts(v float64, why string) seedVal { return seedVal{v: v, skip: why} }

const ring256Why = "the row contradicts its own definition: a ring of 256 processors has μ = 64 and D = 128 (its L_p = 16138 and L_l = 4100 are those of a 256-ring), so 28 and 64 look like a typesetting error"

var seedTables = []seedRow{
	// Table 3.1: Evaluation of Acyclic Routing in Double Rings.
	{"3.1", "double ring", 16,
		[4]seedVal{ex(4), ex(8), pm(52.0, 0.4), ex(18.0)},
		[4]seedVal{ex(4), ex(8), pm(53.8, 0.2), ex(31.0)}},
	{"3.1", "double ring", 64,
		[4]seedVal{ex(16), ex(32), pm(965, 2), pm(260, 1)},
		[4]seedVal{ex(16), ex(32), pm(979, 2), pm(507, 5)}},
	{"3.1", "double ring", 256,
		[4]seedVal{contradicts(28, ring256Why), contradicts(64, ring256Why), pm(16138, 1), pm(4100, 1)},
		[4]seedVal{contradicts(28, ring256Why), contradicts(64, ring256Why), pm(16197, 2), pm(8166, 2)}},
	// Table 3.2: Evaluation of Acyclic Routing in Square Tori.
	{"3.2", "torus", 16,
		[4]seedVal{ex(2), ex(4), pm(18.5, 0.2), pm(10.8, 0.2)},
		[4]seedVal{ex(2), ex(4), pm(33.3, 0.5), pm(18.3, 0.5)}},
	{"3.2", "torus", 64,
		[4]seedVal{ex(4), ex(8), pm(200.5, 0.8), pm(71.0, 0.6)},
		[4]seedVal{ex(4.44), ex(13), pm(783, 2), pm(330, 2)}},
	{"3.2", "torus", 256,
		[4]seedVal{ex(8), ex(16), pm(1806, 1), pm(523, 1)},
		[4]seedVal{ex(9.27), ex(29), pm(13636, 3), pm(6684, 2)}},
	// Table 3.3: Evaluation of Acyclic Routing in Random Hamiltonian Graphs.
	{"3.3", "hamiltonian", 16,
		[4]seedVal{pm(1.85, 0.01), pm(3.25, 0.05), pm(19.5, 1.2), pm(12.5, 0.7)},
		[4]seedVal{pm(1.97, 0.02), pm(4.3, 0.3), pm(34, 2), pm(19, 1)}},
	{"3.3", "hamiltonian", 64,
		[4]seedVal{pm(3.13, 0.02), pm(5.75, 0.25), pm(194, 7), pm(83, 5)},
		[4]seedVal{pm(3.73, 0.03), pm(8.3, 0.3), pm(660, 40), pm(240, 10)}},
	{"3.3", "hamiltonian", 256,
		[4]seedVal{pm(4.38, 0.01), pm(7.0, 0.13), pm(1110, 20), pm(393, 4)},
		[4]seedVal{pm(5.71, 0.01), pm(11.0, 0.3), pm(11700, 200), pm(3640, 100)}},
}

// measured is a mean and its standard error over repetitions.
type measured struct{ mean, se float64 }

func summarize(xs []float64) measured {
	var s, ss float64
	for _, x := range xs {
		s += x
	}
	m := s / float64(len(xs))
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	if len(xs) < 2 {
		return measured{m, 0}
	}
	return measured{m, math.Sqrt(ss/float64(len(xs)-1)) / math.Sqrt(float64(len(xs)))}
}

func familyLinks(family string, p, rep int) []Link {
	switch family {
	case "double ring":
		return doubleRing(p)
	case "torus":
		k := int(math.Round(math.Sqrt(float64(p))))
		return torus(k)
	case "hamiltonian":
		return hamiltonian(p, newRand(uint64(1000*p+rep)))
	}
	panic(family)
}

// reproduce measures one table row: cyclic, improved and plain quantities
// (μ, D, L_p, L_l each) over reps repetitions — new graphs for the random
// family, new simulation seeds for all.
func reproduce(t testing.TB, family string, p, reps int) (cyc, imp, plain [4]measured) {
	var xs [3][4][]float64
	for r := 0; r < reps; r++ {
		links := familyLinks(family, p, r)
		sp := newShortest(p, links)
		add := func(k int, st stats) {
			for i, x := range []float64{st.mu, float64(st.d), float64(st.lp), float64(st.ll)} {
				xs[k][i] = append(xs[k][i], x)
			}
		}
		add(0, queued(p, len(sp.tail), func(c int) int { return int(sp.head[c]) }, sp.next, newRand(uint64(r))))
		for k, v := range []Variant{Improved, Plain} {
			nw, err := Build(p, links, Options{Variant: v, Merge: true})
			if err != nil {
				t.Fatal(err)
			}
			add(k+1, queued(p, nw.NumChannels(), func(c int) int { return int(nw.head[c]) }, nw.Next, newRand(uint64(r))))
		}
	}
	for i := 0; i < 4; i++ {
		cyc[i], imp[i], plain[i] = summarize(xs[0][i]), summarize(xs[1][i]), summarize(xs[2][i])
	}
	return
}

// tolerance for comparing a measured quantity i (0 μ, 1 D, 2 L_p, 3 L_l)
// with a seed value. Deterministic μ and D must agree to the table's
// rounding (μ′ of the tori, which depends on link numbering the seed does
// not give, within 1%). Random quantities get three combined standard
// errors, plus 2% for μ and D (different random graphs) and 15% for the
// loads, which depend on arbitration details of the seed's simulator that
// the text does not give.
func tolerance(i int, s seedVal, m measured, acyclic bool, family string) float64 {
	if s.spread == 0 && i < 2 && m.se == 0 {
		if acyclic && family == "torus" && i == 0 {
			return 0.01 * s.v
		}
		return 0.005 + 1e-9
	}
	tol := 3 * math.Hypot(s.spread, m.se)
	if i < 2 {
		return tol + 0.02*s.v
	}
	return tol + 0.15*s.v
}

// num formats a table figure with sensible precision.
func num(x float64) string {
	switch a := math.Abs(x); {
	case a >= 100:
		return fmt.Sprintf("%.0f", x)
	case a >= 10:
		return fmt.Sprintf("%.1f", x)
	case a >= 1:
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.3f", x)
}

func TestTables(t *testing.T) {
	t.Parallel() // the package's three longest tests share nothing
	reps := map[string]int{"double ring": 3, "torus": 3, "hamiltonian": 10}
	if testing.Short() || raceEnabled {
		reps = map[string]int{"double ring": 1, "torus": 1, "hamiltonian": 3}
	}
	names := [4]string{"μ", "D", "L_p", "L_l"}
	var out strings.Builder
	fmt.Fprintf(&out, "| table | graph | P | quantity | seed | Parasol | difference | plain variant |\n")
	fmt.Fprintf(&out, "|---|---|---|---|---|---|---|---|\n")
	for _, row := range seedTables {
		if (testing.Short() || raceEnabled) && row.p == 256 {
			continue
		}
		cyc, imp, plain := reproduce(t, row.family, row.p, reps[row.family])
		for acy, ms := range [2][4]measured{cyc, imp} {
			seeds := row.cyc
			if acy == 1 {
				seeds = row.acy
			}
			for i, s := range seeds {
				m := ms[i]
				name := names[i]
				extra := ""
				if acy == 1 {
					name = strings.Replace(name, "_", "′_", 1)
					if i < 2 {
						name += "′"
					}
					extra = num(plain[i].mean)
				}
				diff := fmt.Sprintf("%+.1f%%", 100*(m.mean-s.v)/s.v)
				if s.skip != "" {
					diff = "not asserted (see note)"
				}
				seedText := fmt.Sprintf("%g", s.v)
				if s.spread > 0 {
					seedText += fmt.Sprintf(" ± %g", s.spread)
				}
				ourText := num(m.mean)
				if m.se > 0 {
					ourText += " ± " + num(m.se)
				}
				fmt.Fprintf(&out, "| %s | %s | %d | %s | %s | %s | %s | %s |\n", row.table, row.family, row.p, name, seedText, ourText, diff, extra)
				if s.skip != "" {
					t.Logf("Table %s %s P=%d %s: not asserted: %s", row.table, row.family, row.p, name, s.skip)
					continue
				}
				if tol := tolerance(i, s, m, acy == 1, row.family); math.Abs(m.mean-s.v) > tol {
					t.Errorf("Table %s %s P=%d %s: got %.4g ± %.2g, seed %g ± %g (tolerance %.3g)", row.table, row.family, row.p, name, m.mean, m.se, s.v, s.spread, tol)
				}
			}
		}
	}
	t.Log("\n" + out.String())
}
