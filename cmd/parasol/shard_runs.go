package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/parasol-lang/parasol/runtime"
)

// runShard is what `sim --runs R --shard I/N` prints: the raw figures of
// its runs and what merge needs to print the whole result exactly as one
// `sim --runs R` would. Its floats are Go's shortest exact form (not the
// output layer's 12 digits), so that the aggregate is bit for bit the
// same.
type runShard struct {
	Kind    string              `json:"parasol_shard"` // "sim --runs"
	Format  string              `json:"format"`        // the --format the whole result is printed in
	Shard   int                 `json:"shard"`
	Shards  int                 `json:"shards"`
	Runs    int                 `json:"runs"`
	Op      string              `json:"op"`
	Run     *runInfo            `json:"run"`
	Records []runtime.RunRecord `json:"records"`
}

const runShardKind = "sim --runs"

// runSimShard simulates this process's share of --runs and prints its
// records.
func runSimShard(e *env, sf *simFlags, shard shardFlag, shards int, spec, format string) error {
	if shard.auto {
		var err error
		if shard, err = autoShard("sim", shards); err != nil {
			return err
		}
	}
	sf.shardI, sf.shardN = shard.i, shard.n
	res, run, err := sf.simulate(e, spec, false)
	if res == nil {
		return err
	}
	if err != nil {
		return err // interrupted: the records are not the shard's runs
	}
	doc := runShard{Kind: runShardKind, Format: format, Shard: shard.i, Shards: shard.n, Runs: sf.runs, Op: res.Op, Run: run, Records: res.Records}
	if doc.Records == nil {
		doc.Records = []runtime.RunRecord{}
	}
	if err := json.NewEncoder(e.stdout).Encode(doc); err != nil {
		return err
	}
	if res.Deadlock {
		return &exitError{code: exitDeadlock}
	}
	return nil
}

// isRunShard reports whether a file holds a shard of sim --runs.
func isRunShard(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimSpace(data), []byte(`{"parasol_shard":`))
}

// mergeRunShards joins the shards of one sim --runs into the result the
// whole run prints, in the format it was asked for.
func mergeRunShards(w io.Writer, names []string, datas [][]byte) error {
	var first *runShard
	var recs []runtime.RunRecord
	seen := map[int]string{}
	for k, data := range datas {
		var d runShard
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil || d.Kind != runShardKind {
			return fmt.Errorf("parasol merge: %s is not a shard of parasol sim --runs: %v", names[k], err)
		}
		if first == nil {
			first = &d
		} else if err := sameRun(first, &d); err != nil {
			return fmt.Errorf("parasol merge: %s and %s are not shards of one run: %v", names[0], names[k], err)
		}
		if prev, ok := seen[d.Shard]; ok {
			return fmt.Errorf("parasol merge: %s and %s are both shard %d/%d", prev, names[k], d.Shard, d.Shards)
		}
		seen[d.Shard] = names[k]
		recs = append(recs, d.Records...)
	}
	for i := range first.Shards {
		if _, ok := seen[i]; !ok {
			return fmt.Errorf("parasol merge: shard %d/%d is missing", i, first.Shards)
		}
	}
	res, err := runtime.Aggregate(first.Op, first.Runs, recs)
	if err != nil {
		return fmt.Errorf("parasol merge: %v", err)
	}
	if err := printSim(w, first.Format, res, first.Run); err != nil {
		return err
	}
	if res.Deadlock {
		return &exitError{code: exitDeadlock}
	}
	return nil
}

// sameRun checks that two shards split one run: the same machine,
// experiment, format and shard count.
func sameRun(a, b *runShard) error {
	ra, _ := json.Marshal(a.Run)
	rb, _ := json.Marshal(b.Run)
	switch {
	case a.Shards != b.Shards:
		return fmt.Errorf("split %d and %d ways", a.Shards, b.Shards)
	case a.Format != b.Format:
		return fmt.Errorf("printed as %s and as %s", a.Format, b.Format)
	case a.Runs != b.Runs || a.Op != b.Op || !bytes.Equal(ra, rb):
		return fmt.Errorf("their runs differ: %s and %s", ra, rb)
	}
	return nil
}
