package eval

import (
	"regexp"
	"testing"
)

// positioned matches a diagnostic's file:line:col.
var positioned = regexp.MustCompile(`:\d+:\d+: `)

// FuzzProgramSchedule instantiates mutated program bodies on a small
// machine: whatever the text, the answer is a schedule or positioned
// errors, never a panic or a hang.
func FuzzProgramSchedule(f *testing.F) {
	for _, s := range []string{
		"if rank == 0 { compute(10us) } barrier()",
		"let h = irecv(from: mod(rank + 1, ranks)); send(1KB, to: mod(rank + ranks - 1, ranks)); wait(h)",
		"for i in 1 .. 3 { allreduce(8B * i, algorithm: ring); compute(i * float.mul) }",
		"if rank < 2 { recv(from: 1 - rank) send(8B, to: 1 - rank) }",
		"spawn() switch() bcast(1KB, root: 2) recv() waitall()",
		"let x = MPI.send(8KB, rank, 0); compute(x) scatter(1KB, root: 1, algorithm: binomial)",
		"let t = now() if rank == 0 { send(0B, to: 1, value: t) } if rank == 1 { let u = recv(from: 0) until(u + 1us) }",
		"let off = 0s for i in 0 .. 2 { let t0 = now() let off = off + (t0 - t0 / 2) } until(off * 2 + 5us)",
	} {
		f.Add(s)
	}
	m, err := LoadSource("m.machine", fourCPUs+`machine "n" extends "m" {
	modelsection MPI { send(n: B, src, dst) = 1us + n / 1MB/s }
}`, WithMachine("n"), WithMaxMemory(16<<20))
	if err != nil {
		f.Fatal(err)
	}
	defer func(n int64) { maxProgramSteps = n }(maxProgramSteps)
	maxProgramSteps = 100_000
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParseProgramBody(m, text)
		if err != nil {
			if !positioned.MatchString(err.Error()) {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		s, err := p.Schedule(m, ScheduleOptions{Ranks: 3})
		if err != nil {
			if !positioned.MatchString(err.Error()) {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		if len(s.RankStart) != s.Ranks+1 || len(s.DepStart) != len(s.Ops)+1 {
			t.Fatalf("malformed schedule: %d ranks, %d rank starts, %d ops, %d dep starts", s.Ranks, len(s.RankStart), len(s.Ops), len(s.DepStart))
		}
		for i := range s.Ops {
			r := s.RankOf(i)
			for _, d := range s.DepsOf(i) {
				if int(d.Op) >= i || s.RankOf(int(d.Op)) != r {
					t.Fatalf("operation %d of rank %d depends on %d", i, r, d.Op)
				}
			}
		}
	})
}
