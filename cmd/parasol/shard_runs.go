package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/eval/study"
	"github.com/parasol-lang/parasol/runtime"
)

// runSimShard simulates this process's share of --runs and prints its
// records (results.RunShard).
func runSimShard(e *env, sf *simFlags, shard shardFlag, shards int, spec, format string) error {
	if shard.auto {
		var err error
		if shard, err = autoShard("sim", shards); err != nil {
			return err
		}
	}
	sf.shardI, sf.shardN = shard.I, shard.N
	res, run, err := sf.simulate(e, spec, false)
	if res == nil {
		return err
	}
	if err != nil {
		return err // interrupted: the records are not the shard's runs
	}
	doc := results.RunShard{Kind: results.RunShardKind, Format: format, Shard: shard.I, Shards: shard.N, Runs: sf.runs, Op: res.Op, Run: run, Records: res.Records}
	if doc.Records == nil {
		doc.Records = []runtime.RunRecord{}
	}
	// Go's shortest exact floats, not results.Encoder's 12 digits, so that
	// the aggregate is bit for bit the same.
	if err := json.NewEncoder(e.stdout).Encode(doc); err != nil {
		return err
	}
	if res.Deadlock {
		return &exitError{code: exitDeadlock}
	}
	return nil
}

// mergeRunShards joins the shards of one sim --runs into the result the
// whole run prints, in the format it was asked for.
func mergeRunShards(w io.Writer, names []string, datas [][]byte) error {
	res, first, err := study.MergeRuns(names, datas)
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
