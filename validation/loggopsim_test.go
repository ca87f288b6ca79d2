package validation

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/parser"
)

// logGOPSimPeer runs the GOAL schedules of eval/program/testdata/goal
// through the packet-level simulation of std:loggp (LogGOPS's NICs and
// CPUs on its crossbar) and puts the last host's end time beside the one
// LogGOPSim printed for them with its default parameters (the file's
// other parameter sets are held by eval/program's
// TestSimulationGivesLogGOPSimsEndTimes).
func logGOPSimPeer(t *testing.T) section {
	const dir = "../eval/program/testdata/goal"
	f, err := os.Open(filepath.Join(dir, "loggopsim.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		head, want, ok := strings.Cut(sc.Text(), " | ")
		if !ok || strings.HasPrefix(head, "#") || !strings.HasSuffix(head, " 2500 1500 1000 6 0 65535") {
			continue
		}
		file := strings.Fields(head)[0]
		last := 0.0
		for _, w := range strings.Fields(want) {
			v, err := strconv.ParseFloat(w, 64)
			if err != nil {
				t.Fatalf("%s: %v", head, err)
			}
			last = max(last, v)
		}
		text, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		s, err := parser.ReadGOAL(strings.NewReader(string(text)), file, 0)
		if err != nil {
			t.Fatal(err)
		}
		m := load(t, "std:loggp", "P="+strconv.Itoa(s.Ranks))
		res, err := program.Run(context.Background(), m, s, program.RunOptions{Simulated: true})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		rows = append(rows, check(t, row{
			Quantity: fmt.Sprintf("%s (%d ranks): last host's end", strings.TrimSuffix(file, ".goal"), s.Ranks),
			Seed:     num(last/1e3) + " us (LogGOPSim)", SeedVal: last / 1e3,
			Value: res.Simulated.Makespan * 1e6, Unit: "us", Tol: 0.005,
			Cmd: "parasol run --simulate std:loggp eval/program/testdata/goal/" + file,
		}))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return section{
		Title: "Peer: LogGOPSim's end times, simulated on std:loggp",
		Intro: "Not a seed: LogGOPSim (github.com/spcl/LogGOPSim at 76451de), run on the GOAL schedules of " +
			"eval/program/testdata/goal with its defaults (L = 2500 ns, o = 1500 ns, g = 1000 ns, G = 6 ns/B, O = 0, " +
			"S = 65535 B; loggopsim.txt holds the commands and three more parameter sets), beside Parasol's packet-level " +
			"simulation of std:loggp: processors with LogGOPS's NICs and CPUs (send_gap, recv_gap, their per-byte parts, " +
			"the per-byte overheads, rendezvous = match; see docs/RUNTIME.md) on a crossbar that adds L and no contention. " +
			"Here the seed column holds LogGOPSim's value.",
		Rows: rows,
		Notes: "Every host's end time agrees within 0.5% + 1 ns under all four parameter sets " +
			"(`go test ./eval/program -run TestSimulationGivesLogGOPSimsEndTimes`); the schedules include " +
			"rendezvous (pingpong of 300000 B, the linear alltoall of 100000 B), the linear alltoall and n-way " +
			"dissemination that were 40% apart before the NIC model, two CPUs (schedgen's --nb --cpu 1) and two NICs " +
			"(nics_2). Outside the table, schedgen's dissemination barrier of 16,384 ranks ends at 77 us in both " +
			"(`schedgen -p dissemination -s 16384 -d 1`).",
	}
}
