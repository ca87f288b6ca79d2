package probe

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/lang"
)

// Machine writes the report as a machine description named name: every
// measured host a processor, one link per pair of hosts with the pair's
// fitted latency and speed (the mean of the measured pairs where a pair
// was not measured), and MPI.send(n, src, dst) = latency + n / speed of
// the pair. The measurements and the quality of each fit are comments.
// legacy writes the Parasol I on-disk format instead of the modern one. A
// report that is not complete is marked PARTIAL in its first line.
func (r *Report) Machine(name string, legacy bool) string {
	var b strings.Builder
	r.header(&b)
	if legacy {
		r.legacy(&b, name)
	} else {
		r.modern(&b, name)
	}
	return b.String()
}

// hostIndex numbers the hosts that answered, in order: their node ids.
func (r *Report) hostIndex() (ids map[int]int, hosts []int) {
	ids = map[int]int{}
	for i := range r.Hosts {
		if _, down := r.Unreachable[i]; !down {
			ids[i] = len(hosts)
			hosts = append(hosts, i)
		}
	}
	return ids, hosts
}

func (r *Report) header(b *strings.Builder) {
	ids, hosts := r.hostIndex()
	measured := r.Measured()
	if !r.Complete() {
		fmt.Fprintf(b, "# PARTIAL: this description is incomplete; these did not answer or failed:\n")
		for _, line := range strings.Split(strings.TrimSpace(r.Failures()), "\n") {
			fmt.Fprintf(b, "#   %s\n", line)
		}
		fmt.Fprintf(b, "# Pairs not measured take the mean of the measured ones.\n")
	}
	fmt.Fprintf(b, "# Measured by parasol probe on %s: %d hosts, %d pair%s measured",
		r.Started.UTC().Format(time.RFC3339), len(hosts), len(measured), plural(len(measured)))
	if r.Sampled {
		n := len(hosts)
		fmt.Fprintf(b, " (a sample of the %d pairs)", n*(n-1)/2)
	}
	o := r.Options
	fmt.Fprintf(b, ".\n# Ping-pong: one-way time (half the round trip), median of %d repetitions\n", o.Reps)
	fmt.Fprintf(b, "# after one warm-up, over TCP. Trains: %d back-to-back messages and a\n", o.TrainCount)
	fmt.Fprintf(b, "# one-byte acknowledgement. Each link's latency and speed are T = ts + m / speed\n")
	fmt.Fprintf(b, "# fitted to the ping-pong medians, each weighted by 1/T (parasol fit --relative).\n#\n")
	for _, h := range hosts {
		name := ""
		if r.Hostnames[h] != "" {
			name = " (" + plain(r.Hostnames[h]) + ")"
		}
		fmt.Fprintf(b, "# node %d: %s%s\n", ids[h], plain(r.Hosts[h]), name)
	}
	for _, p := range measured {
		fmt.Fprintf(b, "#\n# link %d -- %d:\n#   ping-pong", ids[p.A], ids[p.B])
		for i, s := range p.PingPong {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(b, "%s %s %s", sep, fit.SizeLiteral(int64(s.Size)), dur(s.Median()))
		}
		b.WriteString("\n")
		for _, s := range p.Trains {
			t := s.Median()
			fmt.Fprintf(b, "#   train     %d x %s in %s (%s)\n", s.Count, fit.SizeLiteral(int64(s.Size)), dur(t), lang.FormatQuantitySig(float64(s.Count*s.Size)/t, lang.Dim{Time: -1, Size: 1}, 3))
		}
		ts, tw := p.Fit.Params[0], p.Fit.Params[1]
		fmt.Fprintf(b, "#   fit       ts = %s ± %s, speed = %s (tw = %s ± %s), R² = %s\n",
			dur(ts.Value), dur(ts.Stderr), rate(p.Speed()), fit.Literal(tw.Value, tw.Dim), fit.Literal(tw.Stderr, tw.Dim), lang.FormatNumber(math.Round(p.Fit.R2*1e6)/1e6))
		worst := p.Fit.Largest(1)[0]
		fmt.Fprintf(b, "#   largest residual %s at %s\n", dur(p.Fit.Residuals[worst]), fit.SizeLiteral(int64(p.PingPong[worst].Size)))
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func dur(s float64) string  { return lang.FormatQuantitySig(s, lang.TimeDim, 4) }
func rate(v float64) string { return lang.FormatQuantitySig(v, lang.Dim{Time: -1, Size: 1}, 4) }

// means is the mean latency and speed of the measured pairs, which stand
// for the pairs not measured.
func (r *Report) means() (lat, speed float64) {
	ps := r.Measured()
	for _, p := range ps {
		lat += p.Latency()
		speed += p.Speed()
	}
	return lat / float64(len(ps)), speed / float64(len(ps))
}

func (r *Report) modern(b *strings.Builder, name string) {
	ids, hosts := r.hostIndex()
	lat, speed := r.means()
	fmt.Fprintf(b, "machine %q {\n", name)
	fmt.Fprintf(b, "\tparam lat = %s # mean of the measured links\n", dur(lat))
	fmt.Fprintf(b, "\tparam speed = %s\n", rate(speed))
	for _, p := range r.Measured() {
		a, c := ids[p.A], ids[p.B]
		fmt.Fprintf(b, "\tparam lat_%d_%d = %s\n", a, c, dur(p.Latency()))
		fmt.Fprintf(b, "\tparam speed_%d_%d = %s\n", a, c, rate(p.Speed()))
	}
	b.WriteString("\tprocessor host {\n\t\tname = \"probed host\"\n\t}\n")
	fmt.Fprintf(b, "\ttopology net = full(%d) {\n\t\tnode = host\n\t\tswitching = saf\n", len(hosts))
	b.WriteString("\t\tlink(d, a, b) {\n\t\t\tlatency = pair_latency(a, b)\n\t\t\tspeed = pair_speed(a, b)\n\t\t}\n\t}\n")
	b.WriteString("\t# a pair's measured figure, or the mean where it was not measured\n")
	for _, f := range []string{"lat", "speed"} {
		fn := map[string]string{"lat": "pair_latency", "speed": "pair_speed"}[f]
		fmt.Fprintf(b, "\t%s(a, b) = %s\n", fn, r.pairChain(ids, func(a, c int) string { return fmt.Sprintf("%s_%d_%d", f, a, c) }, f))
	}
	b.WriteString("\tmodelsection MPI {\n")
	b.WriteString("\t\t# one message of n bytes from src to dst, as a ping-pong's one-way time\n")
	b.WriteString("\t\tsend(n: B, src, dst) = pair_latency(src, dst) + n / pair_speed(src, dst)\n")
	b.WriteString("\t}\n}\n")
}

// pairChain is an if-chain over the measured pairs, in either order,
// ending in def.
func (r *Report) pairChain(ids map[int]int, value func(a, b int) string, def string) string {
	var b strings.Builder
	for _, p := range r.Measured() {
		a, c := ids[p.A], ids[p.B]
		fmt.Fprintf(&b, "if min(a, b) == %d and max(a, b) == %d then %s else ", a, c, value(a, c))
	}
	b.WriteString(def)
	return b.String()
}

func (r *Report) legacy(b *strings.Builder, name string) {
	ids, hosts := r.hostIndex()
	lat, speed := r.means()
	measured := r.Measured()
	fmt.Fprintf(b, "machinename = %q\nprocessor = 1\nname = \"probed host\"\n", name)
	fmt.Fprintf(b, "topology = 1\ntoponame = \"probed\"\nnum_links = %d\n", len(hosts)*(len(hosts)-1)/2)
	byPair := map[[2]int]*Pair{}
	for _, p := range measured {
		byPair[[2]int{ids[p.A], ids[p.B]}] = p
	}
	k := 0
	linkOf := map[[2]int]int{}
	for a := range hosts {
		for c := a + 1; c < len(hosts); c++ {
			l, s := lat, speed
			if p := byPair[[2]int{a, c}]; p != nil {
				l, s = p.Latency(), p.Speed()
			}
			linkOf[[2]int{a, c}] = k
			fmt.Fprintf(b, "linknumber = %d\nlinklatency = %s\nlinkspeed = %s\nprocs_connected = 2\n", k, legacyNumber(l*1e9), legacyNumber(s))
			fmt.Fprintf(b, "processortype0 = 1\nprocessornumber = %d\nprocessortype1 = 1\nprocessornumber = %d\n", a, c)
			k++
		}
	}
	// Parasol I has no params: send reads each pair's own link.
	b.WriteString("modelsection = MPI\nsend(n: B, src, dst) = ")
	for _, p := range measured {
		a, c := ids[p.A], ids[p.B]
		l := linkOf[[2]int{a, c}]
		fmt.Fprintf(b, "if min(src, dst) == %d and max(src, dst) == %d then topology(1).link(%d).linklatency + n / topology(1).link(%d).linkspeed else ", a, c, l, l)
	}
	fmt.Fprintf(b, "%s * 1ns + n / (%s * 1B/s)\n", legacyNumber(lat*1e9), legacyNumber(speed))
}

func legacyNumber(f float64) string {
	return lang.FormatNumber(math.Round(f*1e4) / 1e4)
}

// CSV is every measurement of the report, one row per pair, size and
// pattern, with the median time: columns src and dst (the pair's node
// ids), size (bytes), count (1 for a ping-pong's one-way time, the
// messages of a train otherwise) and time (seconds), as parasol fit reads
// them (the loggp model takes size and count) and compare --measured
// (MPI.send takes size, src and dst).
func (r *Report) CSV() string {
	ids, _ := r.hostIndex()
	var b strings.Builder
	b.WriteString("src,dst,size,count,time (s)\n")
	for _, p := range r.Measured() {
		for _, s := range append(append([]Sample(nil), p.PingPong...), p.Trains...) {
			fmt.Fprintf(&b, "%d,%d,%d,%d,%.9g\n", ids[p.A], ids[p.B], s.Size, s.Count, s.Median())
		}
	}
	return b.String()
}
