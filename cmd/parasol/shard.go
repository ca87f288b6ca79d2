package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// shardFlag is --shard I/N: run the points i with i % N == I, a slice of
// the sweep whose size differs from the others' by at most one point.
type shardFlag struct {
	i, n int
	set  bool
	auto bool // "auto": from the scheduler's environment, which must give one
}

func (s *shardFlag) String() string {
	if s == nil || !s.set {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.i, s.n)
}

func (s *shardFlag) Set(v string) error {
	if v == "auto" {
		s.auto = true
		return nil
	}
	a, b, ok := strings.Cut(v, "/")
	if !ok {
		return fmt.Errorf("want I/N, the shard I (from 0) of N, e.g. 0/4")
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return fmt.Errorf("want I/N, whole numbers, e.g. 0/4")
	}
	if err := checkShard(i, n); err != nil {
		return err
	}
	s.i, s.n, s.set = i, n, true
	return nil
}

// autoShard is --shard auto: the shard the scheduler's environment gives,
// which must be there, since the user asked for it.
func autoShard(cmd string, shards int) (shardFlag, error) {
	s, ok, err := shardFromEnv(shards)
	if err != nil {
		return s, usageError("parasol %s: --shard auto: %v", cmd, err)
	}
	if !ok {
		return s, usageError("parasol %s: --shard auto: not in a Slurm array task ($SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job ($JOB_COMPLETION_INDEX); give --shard I/N", cmd)
	}
	return s, nil
}

func checkShard(i, n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("the number of shards must be at least 1, got %d", n)
	case i < 0 || i >= n:
		return fmt.Errorf("the shard must be from 0 to %d, got %d", n-1, i)
	}
	return nil
}

// shardFromEnv finds the shard a cluster scheduler gave the process, when
// --shard does not say: a Slurm array task (SLURM_ARRAY_TASK_ID counted
// from SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT, or of shards when
// given) or a Kubernetes Indexed Job's pod (JOB_COMPLETION_INDEX, of
// shards, the job's completions, which the pod is not told). shards is
// --shards, 0 when not given. ok is false outside such a job.
func shardFromEnv(shards int) (s shardFlag, ok bool, err error) {
	num := func(name string) (int, bool, error) {
		v, found := os.LookupEnv(name)
		if !found || strings.TrimSpace(v) == "" {
			return 0, false, nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return 0, true, fmt.Errorf("$%s=%q is not a whole number", name, v)
		}
		return n, true, nil
	}
	id, found, err := num("SLURM_ARRAY_TASK_ID")
	if err != nil {
		return s, false, err
	}
	from := "$SLURM_ARRAY_TASK_ID"
	if found {
		lo, _, err := num("SLURM_ARRAY_TASK_MIN")
		if err != nil {
			return s, false, err
		}
		id -= lo
		if shards == 0 {
			count, found, err := num("SLURM_ARRAY_TASK_COUNT")
			if err != nil {
				return s, false, err
			}
			if !found {
				return s, false, fmt.Errorf("$SLURM_ARRAY_TASK_ID is set but not $SLURM_ARRAY_TASK_COUNT; give the number of shards with --shards N")
			}
			shards = count
		}
	} else {
		id, found, err = num("JOB_COMPLETION_INDEX")
		if err != nil || !found {
			return s, false, err
		}
		from = "$JOB_COMPLETION_INDEX"
		if shards == 0 {
			return s, false, fmt.Errorf("$JOB_COMPLETION_INDEX is set: give the job's completions with --shards N")
		}
	}
	if err := checkShard(id, shards); err != nil {
		return s, false, fmt.Errorf("%s: %v", from, err)
	}
	return shardFlag{i: id, n: shards, set: true}, true, nil
}
