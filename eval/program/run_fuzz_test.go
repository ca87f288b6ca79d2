package program

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/runtime"
)

// FuzzRunGOAL runs every schedule the GOAL reader accepts both ways on
// std:loggp with a rendezvous limit: neither answer panics or fails,
// every rank's breakdown adds up to its end, and the simulated critical
// path visits each operation at most once and ends by the makespan. Its
// only refusal is a time beyond what the analysis represents. The seeds
// reach what the simulation adds: rendezvous messages over the packet
// network, many of them into one rank's link, forwarding down a tree,
// messages no receive takes, a deadlock, and work on a second CPU.
func FuzzRunGOAL(f *testing.F) {
	for _, name := range []string{"pingpong_2_300000_x1.goal", "gather_13_200000.goal", "binomialtreebcast_16_1024.goal"} {
		text, err := os.ReadFile(filepath.Join("testdata/goal", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(text))
	}
	for _, s := range []string{
		"num_ranks 2\nrank 0 {\na: send 1b to 0 tag 0\nb: recv 1b from -1 tag -1\nc: calc 5 cpu 3\nc irequires b\n}\nrank 1 {\nsend 100000b to 0 tag 7\n}\n",
		"num_ranks 2\nrank 0 {\na: recv 8b from 1 tag 0\nb: send 8b to 1 tag 0\nc: calc 10\nb irequires a\nc requires a\nc requires b\n}\nrank 1 {\na: recv 8b from 0 tag 0\nb: send 8b to 0 tag 0\nb irequires a\n}\n",
		"num_ranks 4\nrank 0 {\na: recv 70000b from -1 tag -1\nb: recv 70000b from -1 tag -1\nc: recv 70000b from -1 tag -1\nb requires a\nc requires b\n}\nrank 1 {\nsend 70000b to 0 tag 1\n}\nrank 2 {\nsend 70000b to 0 tag 2\n}\nrank 3 {\nsend 70000b to 0 tag 3\n}\n",
		"num_ranks 2\nrank 0 {\nc: send 1000b to 1 tag 0\n}\nrank 1 {\nd: calc 10\n}\n",
		"num_ranks 2\nrank 0 {\na: recv 100000b from 1 tag 0\nb: send 100000b to 1 tag 0\nb requires a\n}\nrank 1 {\na: recv 100000b from 0 tag 0\nb: send 100000b to 0 tag 0\nb requires a\n}\n",
		"num_ranks 2\nrank 0 {\na: calc 5000 cpu 1\nb: send 8b to 1 tag 0 cpu 1\nc: calc 100\nb requires a\n}\nrank 1 {\nrecv 8b from 0 tag 0\n}\n",
		"num_ranks 1\nrank 0 {\na: calc 2000000000000000\nb: calc 2000000000000000\nb requires a\n}\n",
	} {
		f.Add(s)
	}
	m, err := eval.Load("std:loggp", eval.WithSet("P", "4"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := parser.ReadGOAL(strings.NewReader(text), "f.goal", 16<<20)
		if err != nil || s.Ranks > 64 || len(s.Ops) > 4096 {
			return
		}
		res, err := Run(context.Background(), m, s, RunOptions{ProgramOptions: runtime.ProgramOptions{MaxEvents: 1 << 20}})
		if err != nil {
			if strings.Contains(err.Error(), "the longest time the analysis represents") {
				return
			}
			t.Fatalf("Run: %v", err)
		}
		for _, pr := range []*runtime.ProgramResult{res.Analytic, res.Simulated} {
			for _, r := range pr.Ranks {
				if sum := r.Compute + r.Send + r.Recv + r.Wait; math.Abs(sum-r.End) > 1e-9*max(r.End, 1e-6) {
					t.Fatalf("%s: rank %d: %g + %g + %g + %g = %g, end %g", pr.Method, r.Rank, r.Compute, r.Send, r.Recv, r.Wait, sum, r.End)
				}
			}
		}
		sim := res.Simulated
		seen := map[[2]int]bool{}
		for _, st := range sim.CriticalPath {
			if seen[[2]int{st.Rank, st.Op}] {
				t.Fatalf("rank %d's operation %d is on the critical path twice", st.Rank, st.Op)
			}
			seen[[2]int{st.Rank, st.Op}] = true
		}
		// A message no receive takes still costs its receiver's CPU, which
		// may end the rank after its last operation.
		if p := sim.CriticalPath; len(p) > 0 && p[len(p)-1].End > sim.Makespan {
			t.Fatalf("the critical path ends at %g, after the makespan %g", p[len(p)-1].End, sim.Makespan)
		}
	})
}

// FuzzRunProgram runs every program body eval instantiates on a 3-cube
// with clocks, both ways: whatever the collectives, algorithms, clock
// operations and requests, Run gives answers or an error, never a panic,
// and every rank's breakdown adds up to its end.
func FuzzRunProgram(f *testing.F) {
	for _, s := range []string{
		"if rank == 0 { compute(10us) } barrier()",
		"let h = irecv(from: mod(rank + 1, ranks)); send(1KB, to: mod(rank + ranks - 1, ranks)); wait(h)",
		"for i in 1 .. 3 { allreduce(8B * i, algorithm: ring); compute(i * 1us) }",
		"if rank < 2 { recv(from: 1 - rank) send(8B, to: 1 - rank) }",
		"bcast(20KB, root: 2, algorithm: pipeline) recv() waitall()",
		"scatter(1KB, root: 1, algorithm: binomial) gather(1KB, algorithm: linear) alltoall(100B) allgather(64B, algorithm: recursive-doubling)",
		"let t = now() if rank == 0 { send(0B, to: 1, value: t) } if rank == 1 { let u = recv(from: 0) until(u + 1us) }",
		"barrier(algorithm: tree) reduce(4KB, root: 3) allreduce(1KB, algorithm: reduce-bcast) barrier(algorithm: dissemination)",
	} {
		f.Add(s, uint8(8))
	}
	m, err := eval.LoadSource("m.machine", `machine "m" {
	param eager_limit = 4KB
	processor cpu {
		send_overhead = 100ns; recv_overhead = 200ns; maxrecvdelay = 20%; maxroutedelay = 10%
		clock_offset = uniform(-1us, 1us); clock_drift = uniform(-1e-5, 1e-5); clock_jitter = 5ns
	}
	topology t = hypercube(3) { latency = 100ns; speed = 100MB/s }
	modelsection MPI { send(n: B, src, dst) = 300ns + n / 100MB/s + hops(src, dst) * 100ns }
}`, eval.WithMaxMemory(64<<20))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, ranks uint8) {
		p, err := eval.ParseProgramBody(m, text)
		if err != nil {
			return
		}
		s, err := p.Schedule(m, eval.ScheduleOptions{Ranks: 1 + int(ranks%12)})
		if err != nil || len(s.Ops) > 20000 {
			return
		}
		res, err := Run(context.Background(), m, s, RunOptions{ProgramOptions: runtime.ProgramOptions{MaxEvents: 1 << 20, Timeline: true}})
		if err != nil {
			return // a refusal (an algorithm for powers of two, say) is an answer
		}
		for _, pr := range []*runtime.ProgramResult{res.Analytic, res.Simulated} {
			for _, r := range pr.Ranks {
				if sum := r.Compute + r.Send + r.Recv + r.Wait; math.Abs(sum-r.End) > 1e-9*max(r.End, 1e-6) {
					t.Fatalf("%s: rank %d: %g + %g + %g + %g = %g, end %g", pr.Method, r.Rank, r.Compute, r.Send, r.Recv, r.Wait, sum, r.End)
				}
			}
		}
	})
}
