package study

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/runtime"
)

// testSweep is a small study of std:c104-chain: two switch delays, two
// switchings and two sizes of an all-to-all exchange, two runs a point.
func testSweep(t *testing.T) *Sweep {
	t.Helper()
	m, err := eval.Load("std:c104-chain")
	if err != nil {
		t.Fatal(err)
	}
	return &Sweep{Machine: m, Options: runtime.Options{Op: "alltoall", Runs: 2, Seed: 7},
		Axes: []Axis{{Path: "delta", Values: []string{"0.5us", "2us"}}}, Switchings: []string{"saf", "wormhole"},
		Sizes: []int64{32, 1024}, Workers: 2, Record: results.Run{Command: "sweep", Source: "std:c104-chain", Sets: []string{}}}
}

// runSweep runs the points of shard and returns its output as JSON lines.
func runSweep(t *testing.T, s *Sweep, shard Shard) []byte {
	t.Helper()
	points, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	enc := results.NewEncoder(&out)
	err = s.Run(context.Background(), shard.Select(points), func(r *Result) error {
		return enc.Encode(results.SweepSim{Key: results.Key{Point: r.Point.Index, Points: len(points)}, Result: r.Sim, Run: r.Run})
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestShardsOfASweepMergeIntoTheWholeSweep(t *testing.T) {
	s := testSweep(t)
	whole := runSweep(t, s, Shard{})
	var lines []results.Line
	for i, name := range []string{"shard0.jsonl", "shard1.jsonl"} {
		ls, _, err := results.ReadSweep(name, runSweep(t, s, Shard{i, 2}))
		if err != nil {
			t.Fatal(err)
		}
		if len(ls) != 4 {
			t.Fatalf("%s has %d points, want 4 of the 8", name, len(ls))
		}
		lines = append(lines, ls...)
	}
	merged, err := Merge(lines)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	for _, l := range merged {
		got.Write(l.Text)
	}
	if !bytes.Equal(got.Bytes(), whole) {
		t.Errorf("the merged shards differ from the whole sweep:\n%s\nwant\n%s", got.Bytes(), whole)
	}

	// Without one of the shards, its points are missing.
	var missing *MissingError
	if _, err := Merge(lines[:4]); !asMissing(err, &missing) || !reflect.DeepEqual(missing.Missing, []int{1, 3, 5, 7}) || missing.Total != 8 {
		t.Errorf("merging shard 0 alone: %v", err)
	}
	// A point given twice is refused.
	if _, err := Merge(append(lines, lines[0])); err == nil {
		t.Error("a point given twice was merged")
	}
}

func asMissing(err error, m **MissingError) bool {
	var ok bool
	*m, ok = err.(*MissingError)
	return ok
}

// A point's machine is derived from the one loaded machine; its result is
// the one of loading the file with the point's --set values and
// simulating with the point's options and seed.
func TestAPointIsTheMachineLoadedWithItsValues(t *testing.T) {
	s := testSweep(t)
	points, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	var got []*Result
	if err := s.Run(context.Background(), points, func(r *Result) error { got = append(got, r); return nil }, nil); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 5} { // delta 0.5us, saf, 32 B; delta 2us, saf, 1 KB
		p := points[i]
		m, err := eval.Load("std:c104-chain", eval.WithSet(p.Sets[0].Path, p.Sets[0].Value))
		if err != nil {
			t.Fatal(err)
		}
		rs, err := m.Spec("")
		if err != nil {
			t.Fatal(err)
		}
		opts := s.Options
		opts.Size, opts.Switching, opts.Seed = int(p.Size), p.Switching, PointSeed(s.Options.Seed, i)
		want, err := runtime.Simulate(context.Background(), rs, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[i].Sim, want) {
			t.Errorf("point %d (%v): %+v\nwant %+v", i, p.Sets, got[i].Sim, want)
		}
		if got[i].Run.Sets[0] != "delta="+p.Sets[0].Value || *got[i].Run.Seed != opts.Seed || got[i].Run.Switching != p.Switching {
			t.Errorf("point %d's run: %+v", i, got[i].Run)
		}
	}
	if got[0].Sim.Latency.Mean >= got[4].Sim.Latency.Mean {
		t.Errorf("a 0.5us switch delay is not faster than a 2us one: %g ≥ %g", got[0].Sim.Latency.Mean, got[4].Sim.Latency.Mean)
	}
}
