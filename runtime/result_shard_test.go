package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Runs sharded over any number of processes, their records passed through
// JSON as a process would write them, aggregate to exactly the result of
// one process running them all, the senders' final acknowledgements
// (seed 000's C104 chain, four channels) among them.
func TestShardedRunsAggregateToTheWholeResult(t *testing.T) {
	xmp, chain := xmpSpec(t), c104Chain(t, 6)
	for _, c := range []struct {
		spec           *Spec
		op             string
		size, channels int
	}{{xmp, "randperm", 32, 1}, {xmp, "uniform", 32, 1}, {xmp, "alltoall", 32, 1}, {chain, "send", 1024, 4}} {
		spec, op := c.spec, c.op
		opts := Options{Op: op, Size: c.size, Runs: 7, Seed: 42, Channels: c.channels}
		whole, err := Simulate(context.Background(), spec, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, shards := range []int{1, 2, 3, 7, 9} {
			var recs []RunRecord
			for i := shards - 1; i >= 0; i-- { // any order
				o := opts
				o.Shard, o.Shards, o.KeepRuns = i, shards, true
				part, err := Simulate(context.Background(), spec, o)
				if err != nil {
					t.Fatal(err)
				}
				data, err := json.Marshal(part.Records)
				if err != nil {
					t.Fatal(err)
				}
				var back []RunRecord
				if err := json.Unmarshal(data, &back); err != nil {
					t.Fatal(err)
				}
				recs = append(recs, back...)
			}
			got, err := Aggregate(op, opts.Runs, recs)
			if err != nil {
				t.Fatalf("%s, %d shards: %v", op, shards, err)
			}
			if d := cmp.Diff(whole, got); d != "" {
				t.Errorf("%s over %d shards differs from one process (-whole +shards):\n%s", op, shards, d)
			}
		}
	}
}

func TestAggregateRefusesMissingAndRepeatedRuns(t *testing.T) {
	part, err := Simulate(context.Background(), xmpSpec(t), Options{Op: "randperm", Runs: 4, Shard: 0, Shards: 2, KeepRuns: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		recs []RunRecord
		want string
	}{
		{part.Records, "run 1 is missing"},
		{append(part.Records, part.Records[0]), "run 0 is there twice"},
		{[]RunRecord{{Index: 4}}, "run 4 is outside the 4 runs"},
	} {
		if _, err := Aggregate("randperm", 4, tc.recs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}
