package eval

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// sharedGOAL is a random GOAL schedule of R ranks whose operations run on
// two CPUs per rank, with requires and irequires between them, so that
// on few processors ranks contend for CPUs and NICs every way they can.
func sharedGOAL(R, msgs int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	ops := make([][]string, R)
	count := make([]int, R)
	add := func(r int, op string) {
		count[r]++
		n := count[r]
		ops[r] = append(ops[r], fmt.Sprintf("l%d: %s cpu %d", n, op, rng.IntN(2)))
		if n > 1 && rng.IntN(3) > 0 {
			rel := "requires"
			if rng.IntN(3) == 0 {
				rel = "irequires"
			}
			ops[r] = append(ops[r], fmt.Sprintf("l%d %s l%d", n, rel, 1+rng.IntN(n-1)))
		}
	}
	for i := range msgs {
		src, dst := rng.IntN(R), rng.IntN(R)
		size := []int{8, 100, 4000, 70000}[rng.IntN(4)]
		add(rng.IntN(R), fmt.Sprintf("calc %d", rng.IntN(3000)))
		add(src, fmt.Sprintf("send %db to %d tag %d", size, dst, i))
		add(dst, fmt.Sprintf("recv %db from %d tag %d", size, src, i))
	}
	return goalText(ops)
}

// The analytic answer of ranks that share processors — every rank queued
// for its processor's CPU and NIC — is the one the analysis gave before
// waiting ranks were queued per processor: each case's result (times,
// critical path, timeline in order) is summed up by its SHA-256.
func TestAnalyzeRanksSharingProcessorsKeepTheirAnswers(t *testing.T) {
	xmp, err := Load("std:xmp64")
	if err != nil {
		t.Fatal(err)
	}
	clocks, err := Load("../examples/programs/clock-sync.machine")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		m       *Machine
		file    string // a program file, or "" for goal
		program string
		args    map[string]string
		ranks   int
		goal    string
		want    string
	}{
		{name: "jacobi", m: xmp, file: "jacobi.machine", ranks: 256, want: "21440 ops, makespan 0.001721166613 s, path 176 steps, 42158 spans, sha256 06ab31e735e9e6d94e0f44d5c41160ca855bab91bb3e2177920664c88990224c"},
		{name: "ring-barrier", m: xmp, file: "ring.machine", ranks: 256, want: "3328 ops, makespan 9.959999e-05 s, path 50 steps, 6616 spans, sha256 a86319ed318e26b6a019fabfb8fbaedcc38d03c4023b0be728cf23c5fc7bbd3b"},
		{name: "pipeline", m: xmp, file: "pipeline_bcast.machine", ranks: 256, want: "8160 ops, makespan 0.008380235325 s, path 7876 steps, 8415 spans, sha256 9204561c4083170af24c7b5eb3f2d3be5515aee5dfdbdd17f62a82cef1c8eaf5"},
		{name: "ring-allreduce", m: xmp, file: "ring_allreduce.machine", ranks: 192, want: "220032 ops, makespan 0.001103069646 s, path 1528 steps, 293440 spans, sha256 d6ce21f293a7d9820e82221193a079e3ecb18b5fa48aed4a6f92627dc2091d63"},
		{name: "farm", m: xmp, file: "farm.machine", ranks: 200, args: map[string]string{"tasks": "600"}, want: "3000 ops, makespan 0.000680146592 s, path 493 steps, 3802 spans, sha256 7af442f1069f90c676f0baed2f15fd8ca32ea864adb3f5b4ddfe8e17436490b8"},
		{name: "clocks-until", m: clocks, file: "clock-sync.machine", program: "clocksync", ranks: 256,
			args: map[string]string{"then_barrier": "1", "then_transpose": "1"}, want: "33022 ops, makespan 3.1012838e-05 s, path 265 steps, 32435 spans, sha256 f5d1636deb2ee92375dfeee1bd3f48200b004c38507d5c8eaf6c698b1471981d"},
		{name: "goal-two-cpus", m: loggp(t, 3, 2500, 1500, 1000, 6, 0, 65535), goal: sharedGOAL(16, 600, 1), want: "1800 ops, makespan 0.027920538 s, path 209 steps, 1553 spans, sha256 b3a8199331ba1497782d5cac195c4409c3fa63112c08d2806b568561ec8cab9f"},
		{name: "goal-two-cpus-rendezvous", m: loggp(t, 2, 2500, 1500, 3000, 6, 1, 1000), goal: sharedGOAL(9, 500, 2), want: "1500 ops, makespan 0.033709223 s, path 264 steps, 1275 spans, sha256 7dde72f5ab10b8f80b6265ccbff5989e72a7893d4897af975dfdee23f4c770bc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s *lang.Schedule
			if tc.goal != "" {
				s = readGOAL(t, tc.name, tc.goal)
			} else {
				p, err := LoadProgram("../examples/programs/"+tc.file, WithProgram(tc.program))
				if err != nil {
					t.Fatal(err)
				}
				if s, err = p.Schedule(tc.m, ScheduleOptions{Ranks: tc.ranks, Args: tc.args}); err != nil {
					t.Fatal(err)
				}
			}
			res := analyze(t, tc.m, s, AnalyzeOptions{Timeline: true})
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("%d ops, makespan %g s, path %d steps, %d spans, sha256 %x",
				len(s.Ops), res.Makespan, len(res.CriticalPath), len(res.Timeline), sha256.Sum256(b))
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// Ranks that share a processor take its CPU, and its NIC, in the order
// they became ready for it, each waiting rank in turn as the one before
// it is done, whatever became ready meanwhile.
func TestAnalyzeRanksSharingAProcessorTakeItInTurn(t *testing.T) {
	for _, tc := range []struct {
		name string
		P    int
		g    int64 // the NIC's gap per message, ns
		ops  [][]string
		want string // end times, ns
	}{
		{"four ranks computing twice on one CPU", 1, 1000, [][]string{
			{"l1: calc 1000", "l2: calc 1000", "l2 requires l1"},
			{"l1: calc 1000", "l2: calc 1000", "l2 requires l1"},
			{"l1: calc 1000", "l2: calc 1000", "l2 requires l1"},
			{"l1: calc 1000", "l2: calc 1000", "l2 requires l1"},
		}, "[5000 6000 7000 8000]"},
		// Ranks 0, 2 and 4 share processor 0 and send to rank 1: each
		// send holds the CPU o = 1 µs and the NIC g = 3 µs, so they
		// start 3 µs apart; rank 1 takes each o = 1 µs after L = 2.5 µs.
		{"three ranks sending through one NIC", 2, 3000, [][]string{
			{"l1: send 1b to 1 tag 0"},
			{"l1: recv 1b from -1 tag 0", "l2: recv 1b from -1 tag 0", "l3: recv 1b from -1 tag 0"},
			{"l1: send 1b to 1 tag 0"},
			{},
			{"l1: send 1b to 1 tag 0"},
		}, "[1000 10500 4000 0 7000]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := readGOAL(t, tc.name, goalText(tc.ops))
			res := analyze(t, loggp(t, tc.P, 2500, 1000, tc.g, 0, 0, 65535), s, AnalyzeOptions{})
			if got := fmt.Sprint(endsNS(res)); got != tc.want {
				t.Errorf("end times (ns) %s, want %s", got, tc.want)
			}
		})
	}
}
