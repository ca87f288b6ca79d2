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
// one process running them all.
func TestShardedRunsAggregateToTheWholeResult(t *testing.T) {
	spec := xmpSpec(t)
	for _, op := range []string{"randperm", "uniform", "alltoall"} {
		opts := Options{Op: op, Size: 32, Runs: 7, Seed: 42}
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
