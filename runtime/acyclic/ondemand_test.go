package acyclic

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
)

// onDemand is opt with routing on demand and a distance cache of the
// fewest destinations allowed, so that almost every lookup evicts.
func onDemand(opt Options) Options {
	opt.FullTableBytes, opt.CacheBytes = -1, 1
	return opt
}

// states lists every (processor, arrival) a Next query can name, the
// arrivals Local and every channel entering the processor.
func states(nw *Network) [][2]int {
	var s [][2]int
	for v := 0; v < nw.n; v++ {
		s = append(s, [2]int{v, Local})
	}
	for c := range nw.head {
		s = append(s, [2]int{int(nw.head[c]), c})
	}
	return s
}

// TestOnDemandMatchesTables: routing on demand, directly and through a
// Memo, offers exactly the channels the full tables offer, for every
// destination, processor and arrival, on every test graph (multigraphs,
// merged or not, and several components) and variant.
func TestOnDemandMatchesTables(t *testing.T) {
	t.Parallel() // the package's three longest tests share nothing
	for _, g := range testGraphs() {
		if raceEnabled && g.n > 64 {
			continue
		}
		for _, opt := range allOptions {
			name := fmt.Sprintf("%s/%+v", g.name, opt)
			full, err := Build(g.n, g.links, opt)
			if err != nil {
				t.Fatal(name, err)
			}
			lazy, err := Build(g.n, g.links, onDemand(opt))
			if err != nil {
				t.Fatal(name, err)
			}
			if full.OnDemand() || !lazy.OnDemand() || lazy.TableBytes() != 0 {
				t.Fatalf("%s: full.OnDemand %v, lazy.OnDemand %v", name, full.OnDemand(), lazy.OnDemand())
			}
			// The memo on a network of its own, whose cache stays empty,
			// stops every search at the layer it needs.
			own, err := Build(g.n, g.links, onDemand(opt))
			if err != nil {
				t.Fatal(name, err)
			}
			memo := NewMemo(own, 64<<10) // about 1 KiB per shard: resets often
			sts := states(full)
			var want, got, viaMemo []int
			// Destinations in a scrambled order, so the cache evicts; a
			// sample of them on the largest graphs.
			dsts := g.n
			if g.n > 32 {
				dsts = 12
			}
			for i := 0; i < dsts; i++ {
				d := i * 7919 % g.n // 7919 is prime: a permutation
				for _, s := range sts {
					want = full.Next(want[:0], s[0], d, s[1])
					got = lazy.Next(got[:0], s[0], d, s[1])
					viaMemo = memo.Next(viaMemo[:0], s[0], d, s[1])
					if !slices.Equal(want, got) || !slices.Equal(want, viaMemo) {
						t.Fatalf("%s: Next(v %d, dst %d, in %d): tables %v, on demand %v, memo %v", name, s[0], d, s[1], want, got, viaMemo)
					}
				}
			}
			if st := own.CacheStats(); g.n > 1 && (st.Searches != 0 || st.Partial == 0) {
				t.Fatalf("%s: memo's network %+v, want partial searches only", name, st)
			}
			fr, err1 := Check(full.Routing())
			lr, err2 := Check(lazy.Routing())
			if err1 != nil || err2 != nil || !slices.Equal(fr.Cycle, lr.Cycle) || fr.Dependencies != lr.Dependencies ||
				fr.Acyclic != lr.Acyclic || fr.Connected != lr.Connected || fr.DeadEnds != lr.DeadEnds {
				t.Fatalf("%s: check with tables %+v %v, on demand %+v %v", name, fr, err1, lr, err2)
			}
		}
	}
}

// TestOnDemandConcurrent: goroutines sharing one network and one memo, each
// in its own order of destinations, get the tables' channels; the cache
// and memo state they race on never changes an answer.
func TestOnDemandConcurrent(t *testing.T) {
	n := 128
	if raceEnabled {
		n = 32
	}
	links := hamiltonian(n, newRand(11))
	opt := Options{Variant: Improved, Components: 2, Merge: true}
	full, _ := Build(n, links, opt)
	lazy, err := Build(n, links, onDemand(opt))
	if err != nil {
		t.Fatal(err)
	}
	memo := NewMemo(lazy, 1)
	sts := states(full)
	workers := max(4, runtime.GOMAXPROCS(0))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := newRand(uint64(w))
			var want, got, viaMemo []int
			for range 20 * n {
				d, s := rng.IntN(n), sts[rng.IntN(len(sts))]
				want = full.Next(want[:0], s[0], d, s[1])
				got = lazy.Next(got[:0], s[0], d, s[1])
				viaMemo = memo.Next(viaMemo[:0], s[0], d, s[1])
				if !slices.Equal(want, got) || !slices.Equal(want, viaMemo) {
					errs[w] = fmt.Errorf("Next(v %d, dst %d, in %d): tables %v, on demand %v, memo %v", s[0], d, s[1], want, got, viaMemo)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	st, ms := lazy.CacheStats(), memo.Stats()
	if st.Searches == 0 || ms.Hits == 0 || ms.Misses == 0 || ms.Resets == 0 {
		t.Errorf("cache %+v, memo %+v: want searches, hits, misses and resets", st, ms)
	}
}

// TestWideDistancesRoute: distances of 65,535 channels and more are kept
// 32-bit and route like 16-bit ones.
func TestWideDistancesRoute(t *testing.T) {
	links := hamiltonian(256, newRand(5))
	nw, err := Build(256, links, onDemand(Options{Variant: Improved, Components: 2, Merge: true}))
	if err != nil {
		t.Fatal(err)
	}
	d16 := make([]uint16, len(nw.tail))
	d32 := make([]uint32, len(nw.tail))
	queue := make([]int32, 0, len(nw.tail))
	var a, b []int
	for _, d := range []int32{0, 17, 255} {
		distances(nw.adj, d, d16, queue)
		distances(nw.adj, d, d32, queue)
		for _, s := range states(nw) {
			if s[0] == int(d) {
				continue
			}
			a = nextFrom(nw, d16, a[:0], int32(s[0]), s[1])
			b = nextFrom(nw, d32, b[:0], int32(s[0]), s[1])
			if !slices.Equal(a, b) {
				t.Fatalf("Next(v %d, dst %d, in %d): 16-bit %v, 32-bit %v", s[0], d, s[1], a, b)
			}
		}
	}
	if testing.Short() || raceEnabled {
		return
	}
	// A ring long enough for a route of more than 65,535 hops.
	const n = 70000
	ring, err := Build(n, ring(n), onDemand(Options{Variant: Plain}))
	if err != nil {
		t.Fatal(err)
	}
	// Plain routing forbids climbing onto the one link outside colour 0
	// (opposite processor 0), so a packet that would cross it goes round.
	longest, far := 0, 0
	for dst := n/2 - 2; dst <= n/2+3; dst++ {
		for src := n/2 - 2; src <= n/2+3; src++ {
			if src == dst {
				continue
			}
			r, err := ring.Route(nil, src, dst)
			if err != nil {
				t.Fatal(err)
			}
			if len(r) > longest {
				longest, far = len(r), dst
			}
			v := src
			for _, c := range r {
				from, to, _ := ring.Ends(c)
				if from != v {
					t.Fatalf("route %d→%d leaves %d from %d", src, dst, c, v)
				}
				v = to
			}
			if v != dst {
				t.Fatalf("route %d→%d ends at %d", src, dst, v)
			}
		}
	}
	if longest < math.MaxUint16 {
		t.Errorf("longest route %d hops, want one of at least %d", longest, math.MaxUint16)
	}
	if e := ring.distancesTo(int32(far)); e.d32 == nil {
		t.Error("distances of more than 65,535 hops stored in 16 bits")
	}
}

// TestOnDemandMemoryBounds: the mode follows FullTableBytes, the cache
// holds at least one destination per CPU and otherwise what CacheBytes
// affords, up to every destination there is, and a limit too small for either mode is refused.
func TestOnDemandMemoryBounds(t *testing.T) {
	links := hamiltonian(1024, newRand(2))
	for _, tc := range []struct {
		name          string
		opt           Options
		onDemand      bool
		entries       int // 0: not checked
		wantTooLarge  bool
		tableBytesMin int64
	}{
		{"tables fit", Options{}, false, 0, false, 1},
		{"tables above FullTableBytes", Options{FullTableBytes: 1 << 20}, true, 1024, false, 0}, // the cache affords more destinations than there are
		{"cache bound below the processors", Options{FullTableBytes: -1, CacheBytes: 600 * 2 * 4096}, true, max(600, runtime.GOMAXPROCS(0)), false, 0},
		{"tables above MaxTableBytes", Options{MaxTableBytes: 1 << 20}, true, 0, false, 0},
		{"cache bound", Options{FullTableBytes: -1, CacheBytes: 100 * 2 * 4096}, true, max(100, runtime.GOMAXPROCS(0)), false, 0},
		{"nothing fits", Options{MaxTableBytes: 64 << 10}, false, 0, true, 0},
	} {
		nw, err := Build(1024, links, tc.opt)
		if tc.wantTooLarge {
			if !errors.Is(err, ErrTooLarge) {
				t.Errorf("%s: %v, want ErrTooLarge", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		st := nw.CacheStats()
		if nw.OnDemand() != tc.onDemand || nw.TableBytes() < tc.tableBytesMin || tc.entries > 0 && st.Entries != tc.entries {
			t.Errorf("%s: on demand %v, table %d bytes, cache %+v", tc.name, nw.OnDemand(), nw.TableBytes(), st)
		}
		if tc.opt.MaxTableBytes > 0 && int64(st.Entries)*st.EntryBytes > tc.opt.MaxTableBytes {
			t.Errorf("%s: cache of %d × %d bytes", tc.name, st.Entries, st.EntryBytes)
		}
	}
}

// TestOnDemandAtScale (PARASOL_BIG=1): 65,536 processors, whose tables
// would take 10 GiB, build within 512 MiB for both variants, and a sample
// of routes is the same through the distance cache and through a Memo.
func TestOnDemandAtScale(t *testing.T) {
	if os.Getenv("PARASOL_BIG") == "" {
		t.Skip("set PARASOL_BIG=1 (minutes)")
	}
	const n = 1 << 16
	links := hamiltonian(n, newRand(n))
	for _, v := range []Variant{Plain, Improved} {
		nw, err := Build(n, links, Options{Variant: v, MaxTableBytes: 512 << 20})
		if err != nil {
			t.Fatal(v, err)
		}
		if st := nw.CacheStats(); !nw.OnDemand() || int64(st.Entries)*st.EntryBytes > defaultCacheBytes {
			t.Fatalf("%v: on demand %v, cache %+v", v, nw.OnDemand(), st)
		}
		memo := NewMemo(nw, 0)
		rng := newRand(7)
		var buf []int
		for range 64 {
			src, dst := rng.IntN(n), rng.IntN(n)
			want, err := nw.Route(nil, src, dst)
			if err != nil {
				t.Fatal(v, err)
			}
			var got []int
			for at, in := src, Local; at != dst; {
				buf = memo.Next(buf[:0], at, dst, in)
				if len(buf) == 0 {
					t.Fatalf("%v: memo has no route from %d to %d at %d", v, src, dst, at)
				}
				in = buf[0]
				got = append(got, in)
				at = int(nw.head[in])
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%v: %d→%d: memo %v, cache %v", v, src, dst, got, want)
			}
		}
	}
}
