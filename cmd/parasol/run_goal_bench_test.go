package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRunGOAL times `parasol run --analytic std:loggp FILE.goal`
// whole (reading the text, loading the machine, the analysis and the
// printed answer) on the schedules of issue 30's table, each rank on a
// processor of its own as LogGOPSim has it, and the same with
// --simulate (issue 30 asks the simulated answer within 2× of the
// analytic one's time). By default on the small
// schedgen schedules of the same patterns in eval/program/testdata/goal;
// with PARASOL_GOAL_BENCH=DIR on the full-size ones that
// testdata/bench/schedules.sh writes into DIR.
func BenchmarkRunGOAL(b *testing.B) {
	dir, rows := "../../eval/program/testdata/goal", []struct{ name, file string }{
		{"dissemination", "dissemination_16_1.goal"},
		{"binomialtreebcast", "binomialtreebcast_16_1024.goal"},
		{"allreduce_recdoub", "allreduce_recdoub_8_1024.goal"},
		{"linear_alltoall", "linear_alltoall_8_1024.goal"},
	}
	if d := os.Getenv("PARASOL_GOAL_BENCH"); d != "" {
		dir, rows = d, []struct{ name, file string }{
			{"dissemination", "dissemination_16384.goal"},
			{"binomialtreebcast", "binomialtreebcast_65536.goal"},
			{"allreduce_recdoub", "allreduce_recdoub_4096.goal"},
			{"linear_alltoall", "linear_alltoall_1024.goal"},
			{"dissemination_big", "dissemination_270000.goal"},
		}
	}
	for _, row := range rows {
		for _, answer := range []string{"analytic", "simulate"} {
			b.Run(row.name+"/"+answer, func(b *testing.B) {
				path := filepath.Join(dir, row.file)
				ranks, err := goalRanks(path)
				if err != nil {
					b.Fatal(err)
				}
				args := []string{"run", "--" + answer, "--set", fmt.Sprintf("P=%d", ranks), "std:loggp", path}
				var out, errOut bytes.Buffer
				for b.Loop() {
					out.Reset()
					e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
					if code := run(e, args); code != 0 {
						b.Fatalf("parasol %s: exit status %d: %s", strings.Join(args, " "), code, errOut.String())
					}
				}
			})
		}
	}
}

// goalRanks reads a GOAL schedule's num_ranks line.
func goalRanks(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var n int
	if _, err := fmt.Fscanf(f, "num_ranks %d\n", &n); err != nil {
		return 0, fmt.Errorf("%s: %v", path, err)
	}
	return n, nil
}
