package study

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/runtime"
)

// Merge joins the points of a sweep's shards, read back with
// results.ReadSweep, into the whole sweep's: every point once, in order.
// It refuses a point given twice, points of sweeps of different sizes,
// and a point outside the sweep; points of none of the shards are a
// *MissingError. lines is left as it is.
func Merge(lines []results.Line) ([]results.Line, error) {
	if len(lines) == 0 {
		return nil, nil
	}
	lines = slices.Clone(lines)
	sort.SliceStable(lines, func(a, b int) bool { return lines[a].Point < lines[b].Point })
	total := lines[0].Points
	var missing []int
	next := 0
	for i, l := range lines {
		switch {
		case l.Points != total:
			return nil, fmt.Errorf("%s: point %d is of a sweep of %d points, %s's of %d: not shards of one sweep", l.Where, l.Point, l.Points, lines[0].Where, total)
		case i > 0 && lines[i-1].Point == l.Point:
			return nil, fmt.Errorf("%s: point %d is also at %s", l.Where, l.Point, lines[i-1].Where)
		case l.Point < 0 || l.Point >= total:
			return nil, fmt.Errorf("%s: point %d is outside the sweep's %d points", l.Where, l.Point, total)
		}
		for ; next < l.Point; next++ {
			missing = append(missing, next)
		}
		next = l.Point + 1
	}
	for ; next < total; next++ {
		missing = append(missing, next)
	}
	if len(missing) > 0 {
		return nil, &MissingError{Missing: missing, Total: total}
	}
	return lines, nil
}

// MissingError is the points of a sweep that none of its shards holds.
type MissingError struct {
	Missing []int
	Total   int
}

func (e *MissingError) Error() string {
	var ids []string
	for _, i := range e.Missing[:min(len(e.Missing), 10)] {
		ids = append(ids, strconv.Itoa(i))
	}
	if len(e.Missing) > 10 {
		ids = append(ids, "…")
	}
	return fmt.Sprintf("%d of the %d points are in no file (%s): a shard is missing or did not finish", len(e.Missing), e.Total, strings.Join(ids, ", "))
}

// MergeRuns aggregates the shards of one simulation's runs, each a
// results.RunShard as printed (datas, read from the files names), into the
// result the whole run gives, the runs' records in run order; first is
// the first shard, whose Format and Run the whole result is printed with.
// Every shard must be there once.
func MergeRuns(names []string, datas [][]byte) (res *runtime.Result, first *results.RunShard, err error) {
	var recs []runtime.RunRecord
	seen := map[int]string{}
	for k, data := range datas {
		d, err := results.ReadRunShard(data)
		if err != nil || d.Kind != results.RunShardKind {
			return nil, nil, fmt.Errorf("%s is not a shard of parasol sim --runs: %v", names[k], err)
		}
		if first == nil {
			first = &d
		} else if err := sameRun(first, &d); err != nil {
			return nil, nil, fmt.Errorf("%s and %s are not shards of one run: %v", names[0], names[k], err)
		}
		if prev, ok := seen[d.Shard]; ok {
			return nil, nil, fmt.Errorf("%s and %s are both shard %d/%d", prev, names[k], d.Shard, d.Shards)
		}
		seen[d.Shard] = names[k]
		recs = append(recs, d.Records...)
	}
	if first == nil {
		return nil, nil, fmt.Errorf("no shard to merge")
	}
	for i := range first.Shards {
		if _, ok := seen[i]; !ok {
			return nil, nil, fmt.Errorf("shard %d/%d is missing", i, first.Shards)
		}
	}
	res, err = runtime.Aggregate(first.Op, first.Runs, recs)
	if err != nil {
		return nil, nil, err
	}
	return res, first, nil
}

// sameRun checks that two shards split one run: the same machine,
// experiment, format and shard count.
func sameRun(a, b *results.RunShard) error {
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
