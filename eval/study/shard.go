package study

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Shard is one of N slices of a sweep (or of a simulation's runs): the
// points i with i % N == I, a slice whose size differs from the others' by
// at most one point. The zero Shard is the whole.
type Shard struct{ I, N int }

// Whole reports whether s is the zero Shard, the whole sweep.
func (s Shard) Whole() bool { return s.N == 0 }

// Has reports whether point i is in the shard.
func (s Shard) Has(i int) bool { return s.N == 0 || i%s.N == s.I }

// Select is the points of the shard, in order.
func (s Shard) Select(points []Point) []Point {
	if s.Whole() {
		return points
	}
	var mine []Point
	for _, p := range points {
		if s.Has(p.Index) {
			mine = append(mine, p)
		}
	}
	return mine
}

// String is I/N.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// ParseShard reads I/N, the shard I (from 0) of N.
func ParseShard(v string) (Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	if !ok {
		return Shard{}, fmt.Errorf("want I/N, the shard I (from 0) of N, e.g. 0/4")
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("want I/N, whole numbers, e.g. 0/4")
	}
	if err := checkShard(i, n); err != nil {
		return Shard{}, err
	}
	return Shard{i, n}, nil
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

// ShardFromEnv finds the shard a cluster scheduler gave the process: a
// Slurm array task (SLURM_ARRAY_TASK_ID counted from SLURM_ARRAY_TASK_MIN,
// of SLURM_ARRAY_TASK_COUNT, or of shards when given) or a Kubernetes
// Indexed Job's pod (JOB_COMPLETION_INDEX, of shards, the job's
// completions, which the pod is not told). shards is 0 when not given. ok
// is false outside such a job.
func ShardFromEnv(shards int) (s Shard, ok bool, err error) {
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
	return Shard{id, shards}, true, nil
}
