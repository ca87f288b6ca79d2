package acyclic

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// bigSizes are the graph sizes of the on-demand benchmarks: 4,096 always,
// 16,384 and 65,536 processors with PARASOL_BIG=1 (minutes each).
func bigSizes() []int {
	if os.Getenv("PARASOL_BIG") == "" {
		return []int{4096}
	}
	return []int{4096, 16384, 65536}
}

// plainOnDemand is the plain variant of a random Hamiltonian graph on n
// processors, routed on demand.
func plainOnDemand(b *testing.B, n int) *Network {
	nw, err := Build(n, hamiltonian(n, newRand(uint64(n))), Options{Variant: Plain, FullTableBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	return nw
}

// go test -run '^$' -bench . -benchmem ./runtime/acyclic
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{256, 1024, 4096} {
		links := hamiltonian(n, newRand(uint64(n)))
		for _, v := range []Variant{Plain, Improved} {
			b.Run(fmt.Sprintf("hamiltonian-%d/%v", n, v), func(b *testing.B) {
				var nw *Network
				for b.Loop() {
					var err error
					if nw, err = Build(n, links, Options{Variant: v}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(nw.TableBytes())/(1<<20), "table-MiB")
			})
		}
	}
}

// BenchmarkBuildOnDemand builds without tables: colouring, classes (and
// rule C2 for the improved variant) and the connects.
//
//	PARASOL_BIG=1 go test -run '^$' -bench BuildOnDemand -benchtime 1x -timeout 1h ./runtime/acyclic
func BenchmarkBuildOnDemand(b *testing.B) {
	for _, n := range bigSizes() {
		links := hamiltonian(n, newRand(uint64(n)))
		for _, v := range []Variant{Plain, Improved} {
			b.Run(fmt.Sprintf("hamiltonian-%d/%v", n, v), func(b *testing.B) {
				for b.Loop() {
					if _, err := Build(n, links, Options{Variant: v, FullTableBytes: -1}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{1024, 4096} {
		links := hamiltonian(n, newRand(uint64(n)))
		nw, err := Build(n, links, Options{Variant: Improved})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("hamiltonian-%d", n), func(b *testing.B) {
			for b.Loop() {
				rep, err := Check(nw.Routing())
				if err != nil || !rep.Acyclic || !rep.Connected {
					b.Fatal(err, rep.Acyclic, rep.Connected)
				}
			}
		})
	}
}

// BenchmarkCheckOnDemand is the deadlock check of the plain variant's
// routing without tables: one backward search per destination (reported
// as searches/s), then the exploration of every channel toward it.
//
//	PARASOL_BIG=1 go test -run '^$' -bench CheckOnDemand -benchtime 1x -timeout 2h ./runtime/acyclic
func BenchmarkCheckOnDemand(b *testing.B) {
	for _, n := range bigSizes() {
		nw := plainOnDemand(b, n)
		b.Run(fmt.Sprintf("hamiltonian-%d", n), func(b *testing.B) {
			before := nw.CacheStats()
			start := time.Now()
			for b.Loop() {
				rep, err := Check(nw.Routing())
				if err != nil || !rep.Acyclic || !rep.Connected || rep.DeadEnds != 0 {
					b.Fatal(err, rep.Acyclic, rep.Connected, rep.DeadEnds)
				}
			}
			reportSearches(b, before, nw.CacheStats(), time.Since(start))
		})
	}
}

// BenchmarkRandpermOnDemand routes a random permutation hop by hop as a
// simulation does, every packet one hop per round, through a Memo of the
// plain variant's minimal-path graphs: each packet's first hop searches
// (the distance cache holds far fewer destinations than are in flight),
// the others are looked up.
//
//	PARASOL_BIG=1 go test -run '^$' -bench RandpermOnDemand -benchtime 3x -timeout 1h ./runtime/acyclic
func BenchmarkRandpermOnDemand(b *testing.B) {
	for _, n := range bigSizes() {
		nw := plainOnDemand(b, n)
		b.Run(fmt.Sprintf("hamiltonian-%d", n), func(b *testing.B) {
			rng := newRand(1)
			before := nw.CacheStats()
			var memo MemoStats
			hops := 0
			start := time.Now()
			for b.Loop() {
				m := NewMemo(nw, 0)
				perm := rng.Perm(n)
				type packet struct{ at, dst, in int }
				var flight []packet
				for s, d := range perm {
					if s != d {
						flight = append(flight, packet{s, d, Local})
					}
				}
				var buf []int
				for len(flight) > 0 {
					k := 0
					for _, p := range flight {
						buf = m.Next(buf[:0], p.at, p.dst, p.in)
						if len(buf) == 0 {
							b.Fatalf("no route at %d for %d", p.at, p.dst)
						}
						p.in = buf[rng.IntN(len(buf))] // any minimal channel
						p.at = int(nw.head[p.in])
						hops++
						if p.at != p.dst {
							flight[k] = p
							k++
						}
					}
					flight = flight[:k]
				}
				s := m.Stats()
				memo.Hits += s.Hits
				memo.Misses += s.Misses
				memo.States = max(memo.States, s.States)
			}
			elapsed := time.Since(start)
			reportSearches(b, before, nw.CacheStats(), elapsed)
			b.ReportMetric(float64(hops)/elapsed.Seconds(), "hops/s")
			b.ReportMetric(float64(memo.Hits)/float64(memo.Hits+memo.Misses), "memo-hit-rate")
			b.ReportMetric(float64(memo.States), "memo-states")
		})
	}
}

func reportSearches(b *testing.B, before, after CacheStats, elapsed time.Duration) {
	searches, hits := after.Searches-before.Searches, after.Hits-before.Hits
	searches += after.Partial - before.Partial
	b.ReportMetric(float64(searches)/elapsed.Seconds(), "searches/s")
	if searches+hits > 0 {
		b.ReportMetric(float64(hits)/float64(searches+hits), "cache-hit-rate")
	}
}
