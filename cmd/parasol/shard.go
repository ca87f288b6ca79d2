package main

import "github.com/parasol-lang/parasol/eval/study"

// shardFlag is --shard I/N (study.Shard): run the points i with
// i % N == I, a slice of the sweep whose size differs from the others' by
// at most one point.
type shardFlag struct {
	study.Shard
	set  bool
	auto bool // "auto": from the scheduler's environment, which must give one
}

func (s *shardFlag) String() string {
	if s == nil || !s.set {
		return ""
	}
	return s.Shard.String()
}

func (s *shardFlag) Set(v string) error {
	if v == "auto" {
		s.auto = true
		return nil
	}
	sh, err := study.ParseShard(v)
	if err != nil {
		return err
	}
	s.Shard, s.set = sh, true
	return nil
}

// autoShard is --shard auto: the shard the scheduler's environment gives,
// which must be there, since the user asked for it.
func autoShard(cmd string, shards int) (shardFlag, error) {
	s, ok, err := study.ShardFromEnv(shards)
	if err != nil {
		return shardFlag{}, usageError("parasol %s: --shard auto: %v", cmd, err)
	}
	if !ok {
		return shardFlag{}, usageError("parasol %s: --shard auto: not in a Slurm array task ($SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job ($JOB_COMPLETION_INDEX); give --shard I/N", cmd)
	}
	return shardFlag{Shard: s, set: true}, nil
}
