package study

import (
	"strings"
	"testing"
)

func TestShardsPartitionThePoints(t *testing.T) {
	points, err := CrossProduct(nil, nil, nil, []int64{1, 2, 3, 4, 5, 6, 7}, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	for i := range 3 {
		for _, p := range (Shard{i, 3}).Select(points) {
			seen[p.Index]++
		}
	}
	for _, p := range points {
		if seen[p.Index] != 1 {
			t.Errorf("point %d is in %d shards", p.Index, seen[p.Index])
		}
	}
	if got := (Shard{}).Select(points); len(got) != len(points) {
		t.Errorf("the whole sweep has %d of %d points", len(got), len(points))
	}
}

func TestParseShard(t *testing.T) {
	if s, err := ParseShard(" 2 / 4"); err != nil || s != (Shard{2, 4}) {
		t.Errorf("ParseShard(2/4) = %v, %v", s, err)
	}
	for in, want := range map[string]string{"4/4": "from 0 to 3", "1": "want I/N", "a/b": "whole numbers", "0/0": "at least 1"} {
		if _, err := ParseShard(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseShard(%q) error = %v; want one containing %q", in, err, want)
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	if _, ok, err := ShardFromEnv(0); ok || err != nil {
		t.Errorf("outside a job: ok %v, err %v", ok, err)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "5")
	t.Setenv("SLURM_ARRAY_TASK_MIN", "4")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "3")
	if s, ok, err := ShardFromEnv(0); !ok || err != nil || s != (Shard{1, 3}) {
		t.Errorf("Slurm task 5 of 4..6 = %v, %v, %v; want 1/3", s, ok, err)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "2")
	if _, _, err := ShardFromEnv(0); err == nil {
		t.Error("an Indexed Job without --shards accepted")
	}
	if s, ok, err := ShardFromEnv(4); !ok || err != nil || s != (Shard{2, 4}) {
		t.Errorf("Indexed Job 2 of 4 = %v, %v, %v", s, ok, err)
	}
}
