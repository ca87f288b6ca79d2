package runtime

import "fmt"

// Options choose the experiment run by Simulate.
type Options struct {
	Op   string // see Ops; "" means "send"
	Size int    // message size in bytes (per block for allgather)
	// Src and Dst are external node ids: the endpoints of send and
	// pingpong, the root of broadcast, reduce, scatter and gather (Src), the
	// hotspot (Dst). nil means the first and the last processor.
	Src, Dst  *int
	Runs      int    // repetitions, 0 means 1; run i uses a seed derived from Seed and i
	Seed      uint64 // base seed
	MaxEvents int64  // stop each run after this many events (0 = no limit); the result is partial
	Routing   string // overrides Spec.Routing when not ""
	Switching string // overrides Spec.Switching when not ""
	Channels  int    // message channels per link (seed 000 c); 0 means 1
	Links     int    // links a message is split over (seed 000 l); 0 means 1
	Workers   int    // 0 means GOMAXPROCS
	// Stripes cuts each run (and each open-loop point) into this many
	// stripes of nodes, run in windows of the network's lookahead on as
	// many of the workers as are left to it, where the network has one
	// (kernel_stripes.go: wormhole lanes under credits with buffers that
	// hold every packet with room to spare); 0 chooses (4 on such
	// networks of 16,384 nodes or more, else 1).
	// The answer depends on Stripes, which orders simultaneous events
	// stripe by stripe, never on Workers.
	Stripes int
	// MaxMemory bounds what a simulation may allocate (network state, lanes,
	// buffers, per-run results), in bytes; 0 means limits.Default().
	MaxMemory int64
	// Progress, if set, is called (from one goroutine at a time) as runs
	// complete.
	Progress func(done, total int)
	// PointProgress, if set, is called now and then (every 65,536 events)
	// as an open-loop point of OfferedCurve runs, and once when it ends,
	// with the point's index among the loads; points run on several
	// workers at once, so it must be safe for concurrent use.
	PointProgress func(point int, p PointProgress)
	// LinkLoads fills Result.Links with every wire's load and utilisation.
	LinkLoads bool
	// Shard and Shards run only the runs i with i % Shards == Shard (each
	// with the seed it has in the whole set), so that processes on one
	// machine or many share --runs; 0 Shards means every run. KeepRuns
	// fills Result.Records with each run's raw figures, which Aggregate
	// joins into the result of all the runs.
	Shard, Shards int
	KeepRuns      bool
	// Trace fills Result.Trace with the first run's messages and wires'
	// busy times (of each offered-load point, its own), for a trace viewer.
	Trace bool
}

// Node returns a pointer to id, for Options.Src and Options.Dst.
func Node(id int) *int { return &id }

// Result is the outcome of Simulate, aggregated over all runs. Times are
// seconds. It marshals to the JSON of the `parasol sim --json` command.
type Result struct {
	Op       string `json:"op"`
	Runs     int    `json:"runs"`
	Messages int    `json:"messages"` // messages delivered, over all runs
	Latency  Stats  `json:"latency"`
	// Makespan is the mean over runs of the time until the last event,
	// acknowledgements included; MakespanMax is the largest.
	Makespan    float64 `json:"makespan"`
	MakespanMax float64 `json:"makespan_max"`
	// SendTime is the cost as the sender sees it (seed 000's T_m): from a
	// message's start until its last packet has been transmitted and,
	// with acknowledgements, acknowledged. Mean and max over messages.
	SendTime SendStats `json:"send_time"`
	Hops     HopStats  `json:"hops"`
	// ByHops summarises latency per path length (hop count, ascending;
	// only lengths some message took): one latency mode per hop count
	// shows here even when histogram bins are wider than a hop.
	ByHops      []HopLatency `json:"by_hops"`
	LinkLoadMax int          `json:"link_load_max"` // messages over the busiest wire (largest over runs)
	ProcLoadMax int          `json:"proc_load_max"` // messages through-routed by the busiest processor (largest over runs)
	LinkLoadAvg float64      `json:"link_load_max_mean"`
	ProcLoadAvg float64      `json:"proc_load_max_mean"`
	LinkUtil    UtilStats    `json:"link_util"`
	Events      int64        `json:"events"`
	// Stripes is how many stripes each run was cut into (Options.Stripes),
	// absent where runs kept one queue.
	Stripes int `json:"stripes,omitempty"`
	// Unstriped says why runs kept one queue where Options.Stripes asked
	// for more (sim's notes print it).
	Unstriped string    `json:"-"`
	Histogram Histogram `json:"histogram"`
	Deadlock  bool      `json:"deadlock"`
	// DeadlockRuns counts deadlocked runs; Cycle is the cycle of waiting
	// lanes of the first of them.
	DeadlockRuns int       `json:"deadlock_runs,omitempty"`
	Cycle        []Channel `json:"cycle,omitempty"`
	// Partial is set when MaxEvents or cancellation stopped a run early;
	// Undelivered counts the messages left in flight.
	Partial     bool `json:"partial,omitempty"`
	Undelivered int  `json:"undelivered,omitempty"`
	// Links is every wire's traffic when Options.LinkLoads is set, in
	// link order, each link's A→B wire before its B→A wire.
	Links []LinkLoad `json:"links,omitempty"`
	// Records holds each run's raw figures when Options.KeepRuns is set.
	Records []RunRecord `json:"-"`
	// Trace is the first run as it happened, when Options.Trace asked.
	Trace *BurstTrace `json:"-"`
}

// Stats summarise per-message latencies.
type Stats struct {
	Min  float64 `json:"min"`
	Mean float64 `json:"mean"`
	Max  float64 `json:"max"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	// QuantileError, when not 0, is the relative error the quantiles may
	// have: there were more latencies than a simulation keeps, and they
	// were summarised (result_latency.go). Min, Max and Mean stay exact.
	QuantileError float64 `json:"quantile_error,omitempty"`
}

// SendStats summarise sender-side costs.
type SendStats struct {
	Mean float64 `json:"mean"`
	Max  float64 `json:"max"`
	// FinalAck is the mean over messages of the sender's wait for the
	// final acknowledgement, from its last packet leaving to the last
	// acknowledgement arriving (0, and absent, without acknowledgements):
	// Mean - FinalAck is the time until the sender's last transmission,
	// seed 000 Eq. 5's viewpoint, whose intercept is cγ.
	FinalAck float64 `json:"final_ack,omitempty"`
}

// HopStats summarise path lengths in links (μ and D for all-to-all).
type HopStats struct {
	Mean float64 `json:"mean"`
	Max  int     `json:"max"`
}

// HopLatency summarises the latencies of the messages whose path had Hops
// links (a message's path is that of its first packet).
type HopLatency struct {
	Hops     int     `json:"hops"`
	Messages int     `json:"messages"`
	Mean     float64 `json:"mean"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
}

// hopAgg accumulates latencies per hop count: entry h is for h hops
// (Messages 0 where none), Mean holding the sum until aggregate divides.
type hopAgg []HopLatency

// add folds n messages of total latency sum, extremes lo and hi, into hop
// count h.
func (a hopAgg) add(h, n int, sum, lo, hi float64) hopAgg {
	for len(a) <= h {
		a = append(a, HopLatency{Hops: len(a)})
	}
	x := &a[h]
	if x.Messages == 0 {
		x.Min, x.Max = lo, hi
	} else {
		x.Min, x.Max = min(x.Min, lo), max(x.Max, hi)
	}
	x.Messages += n
	x.Mean += sum
	return a
}

// UtilStats is wire busy time over makespan: the mean over all wires and
// the busiest wire, averaged over runs.
type UtilStats struct {
	Mean float64 `json:"mean"`
	Max  float64 `json:"max"`
}

// Histogram of latencies: Counts[i] messages in [Edges[i], Edges[i+1]).
type Histogram struct {
	Edges  []float64 `json:"edges"`
	Counts []int     `json:"counts"`
}

// Channel names one lane of a wire: From -> To (external ids; To is -1 on a
// shared medium), lane VC.
type Channel struct {
	From int `json:"from"`
	To   int `json:"to"`
	VC   int `json:"vc"`
}

// String names the channel as from->to, with (vcN) for a lane other
// than the first: how deadlock cycles are printed.
func (c Channel) String() string {
	s := fmt.Sprintf("%d->%d", c.From, c.To)
	if c.VC > 0 {
		s += fmt.Sprintf("(vc%d)", c.VC)
	}
	return s
}

// runResult is what one run reports back to the aggregator.
type runResult struct {
	lat         []float64
	sendSum     float64
	sendMax     float64
	ackSum      float64 // the senders' waits for the final acknowledgement
	hopSum      int64
	hopMax      int
	byHops      hopAgg
	makespan    float64
	linkLoad    int
	procLoad    int
	utilMean    float64
	utilMax     float64
	events      int64
	deadlock    bool
	cycle       []Channel
	partial     bool
	undelivered int
	stripes     int    // the run was cut into (1: one queue)
	unstriped   string // why not, where Options.Stripes asked
	err         error
}

const histBins = 32
