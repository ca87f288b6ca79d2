package acyclic

import (
	"fmt"
	"testing"
)

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
