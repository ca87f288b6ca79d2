package runtime

import (
	"fmt"
	"sort"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/limits"
)

// RunRecord is one run's raw figures: what the aggregate of many runs is
// computed from. A run sharded over processes (Options.Shard) keeps them
// (Options.KeepRuns), and Aggregate joins the shards' records into exactly
// the Result one process running every run gives: the same runs, seeded
// by their index, folded in index order.
type RunRecord struct {
	Index       int          `json:"index"`
	Latencies   []float64    `json:"latencies"`
	SendSum     float64      `json:"send_sum"`
	SendMax     float64      `json:"send_max"`
	AckSum      float64      `json:"final_ack_sum,omitempty"`
	HopSum      int64        `json:"hop_sum"`
	HopMax      int          `json:"hop_max"`
	ByHops      []HopLatency `json:"by_hops"` // Mean holds the sum of the latencies
	Makespan    float64      `json:"makespan"`
	LinkLoad    int          `json:"link_load"`
	ProcLoad    int          `json:"proc_load"`
	UtilMean    float64      `json:"util_mean"`
	UtilMax     float64      `json:"util_max"`
	Events      int64        `json:"events"`
	Deadlock    bool         `json:"deadlock,omitempty"`
	Cycle       []Channel    `json:"cycle,omitempty"`
	Partial     bool         `json:"partial,omitempty"`
	Undelivered int          `json:"undelivered,omitempty"`
	Stripes     int          `json:"stripes,omitempty"`
	Unstriped   string       `json:"unstriped,omitempty"`
}

func (r *runResult) record(index int) RunRecord {
	return RunRecord{Index: index, Latencies: r.lat, SendSum: r.sendSum, SendMax: r.sendMax, AckSum: r.ackSum, HopSum: r.hopSum,
		HopMax: r.hopMax, ByHops: r.byHops, Makespan: r.makespan, LinkLoad: r.linkLoad, ProcLoad: r.procLoad,
		UtilMean: r.utilMean, UtilMax: r.utilMax, Events: r.events, Deadlock: r.deadlock, Cycle: r.cycle,
		Partial: r.partial, Undelivered: r.undelivered, Stripes: r.stripes, Unstriped: r.unstriped}
}

// checkRecordBudget adds the records KeepRuns keeps, every run's
// latencies among them, to need and checks the total against the limit.
func (n *network) checkRecordBudget(need int64, tr *traffic, runs int, maxMemory int64) (int64, error) {
	msgs := messagesPerRun(tr.op, int64(n.nprocs))
	per := limits.Add(int64(unsafe.Sizeof(RunRecord{})), limits.Mul(msgs, 8))
	need = limits.Add(need, limits.Mul(int64(runs), per))
	return need, limits.Check(fmt.Sprintf("the raw records of %d run%s", runs, plural(int64(runs))), need, maxMemory)
}

func (rec *RunRecord) result() runResult {
	lat := rec.Latencies
	if lat == nil {
		lat = []float64{}
	}
	return runResult{lat: lat, sendSum: rec.SendSum, sendMax: rec.SendMax, ackSum: rec.AckSum, hopSum: rec.HopSum, hopMax: rec.HopMax,
		byHops: rec.ByHops, makespan: rec.Makespan, linkLoad: rec.LinkLoad, procLoad: rec.ProcLoad,
		utilMean: rec.UtilMean, utilMax: rec.UtilMax, events: rec.Events, deadlock: rec.Deadlock, cycle: rec.Cycle,
		partial: rec.Partial, undelivered: rec.Undelivered, stripes: rec.Stripes, unstriped: rec.Unstriped}
}

// Aggregate joins the records of runs 0 … runs-1, from any number of
// shards in any order, into the result of op over all of them. Every run
// must be there exactly once.
func Aggregate(op string, runs int, recs []RunRecord) (*Result, error) {
	sorted := append([]RunRecord(nil), recs...)
	sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].Index < sorted[b].Index })
	results := make([]runResult, 0, len(sorted))
	for i := range sorted {
		switch idx := sorted[i].Index; {
		case idx < 0 || idx >= runs:
			return nil, fmt.Errorf("run %d is outside the %d runs", idx, runs)
		case idx < i:
			return nil, fmt.Errorf("run %d is there twice", idx)
		case idx > i:
			return nil, fmt.Errorf("run %d is missing", i)
		}
		results = append(results, sorted[i].result())
	}
	if len(results) < runs {
		return nil, fmt.Errorf("run %d is missing", len(results))
	}
	return aggregate(op, results), nil
}

// shardRuns is the runs of shard i of n (every run when n ≤ 1): how many,
// and the index among all runs of its k-th, computed rather than listed
// so that a refused --runs 1e12 allocates nothing.
func shardRuns(runs, i, n int) (count int, index func(k int) int) {
	if n <= 1 {
		return runs, func(k int) int { return k }
	}
	if i >= runs {
		return 0, nil
	}
	return (runs - i + n - 1) / n, func(k int) int { return i + k*n }
}
