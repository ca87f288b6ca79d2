package runtime

import (
	"cmp"
	"slices"
)

// ProgramResult is one answer to "how long does this program take on this
// machine": the analytic critical path (the evaluator's Analyze) or the
// packet-level simulation (RunProgram); both executors produce it, so it
// is defined here, where the evaluator can import it. Times are seconds
// from the program's start. It marshals to the JSON of `parasol run
// --json`.
type ProgramResult struct {
	Method       string      `json:"method"` // "analytic" or "simulated"
	Makespan     float64     `json:"makespan"`
	Ranks        []RankTimes `json:"ranks"`
	CriticalPath []PathStep  `json:"critical_path"`
	Messages     int64       `json:"messages"`
	// Events counts the simulator's events (0 for the analytic answer).
	Events int64 `json:"events,omitempty"`
	// Deadlock is set when ranks wait for messages that never come; the
	// times are then those reached before everything stopped.
	Deadlock *ProgramDeadlock `json:"deadlock,omitempty"`
	// Partial is set when an event limit or cancellation stopped the run
	// before every operation was done.
	Partial bool `json:"partial,omitempty"`
	// Timeline holds what each rank did when, if it was asked for.
	Timeline []Span `json:"timeline,omitempty"`
	// Flows are the run's messages, sender to receiver, Regions each
	// rank's time in each collective, and Links when each wire was busy,
	// if they were asked for (for a trace; they are not in the JSON).
	Flows   []Flow   `json:"-"`
	Regions []Region `json:"-"`
	// Links are the wires' busy times of a simulated run, with Flows.
	Links []LinkBusy `json:"-"`
	// Values are a program's named run-time values (from now(), received
	// times and lets of them) when it ended, by name, one per rank.
	Values map[string][]float64 `json:"values,omitempty"`
	// TrueValues are the same values computed from the true time at every
	// clock read (simulated runs of machines whose clocks are not
	// perfect): what perfect clocks would have given at the same instants.
	// Values minus TrueValues is what the clocks did to the measurement.
	TrueValues map[string][]float64 `json:"true_values,omitempty"`
	// Clocks are each rank's clock as the run drew it, when some clock is
	// not perfect.
	Clocks []RankClock `json:"clocks,omitempty"`
}

// RankClock is the clock of a rank's processor in one run: reading it at
// true time t gives t·(1 + Drift) + Offset plus the read's jitter.
type RankClock struct {
	Offset float64 `json:"offset"`
	Drift  float64 `json:"drift"`
}

// RankTimes is one rank's end time and where its time went: computing,
// sending (its CPU busy with a send), receiving (busy with a receive) and
// waiting (blocked on a message or a dependency). Compute + Send + Recv +
// Wait = End.
type RankTimes struct {
	Rank    int     `json:"rank"`
	Node    int     `json:"node"` // the processor it ran on (external node id)
	End     float64 `json:"end"`
	Compute float64 `json:"compute"`
	Send    float64 `json:"send"`
	Recv    float64 `json:"recv"`
	Wait    float64 `json:"wait"`
}

// PathStep is one operation on the critical path, first to last.
type PathStep struct {
	Rank  int     `json:"rank"`
	Op    int     `json:"op"` // index among the rank's operations
	Kind  string  `json:"kind"`
	Label string  `json:"label"`
	Line  int     `json:"line,omitempty"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

// Span is an interval of one rank's time for a timeline: Kind is
// "compute", "send", "recv" or "wait".
type Span struct {
	Rank  int     `json:"rank"`
	Kind  string  `json:"kind"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Op    int     `json:"op"`
}

// Flow is one message of a program's run: rank From's operation FromOp
// (an index among the rank's operations, as Span.Op) sent Bytes to rank
// To, whose operation ToOp received it (-1: none did). Sent is when the
// sender's CPU began sending it, Received when the receiver's CPU began
// taking it in: the starts of its send and recv spans on the timeline
// (an operation of no cost has no span there).
type Flow struct {
	From, FromOp   int
	To, ToOp       int
	Bytes          int64
	Sent, Received float64
}

// Region is the time rank Rank spent in its operation Op, a collective
// (Name: barrier, allreduce, …), from its first span to its last: the
// spans of the messages it was carried out with nest in it.
type Region struct {
	Rank, Op   int
	Name       string
	Start, End float64
}

// ProgramDeadlock lists the ranks that can never finish and what each
// waits for.
type ProgramDeadlock struct {
	Waiting []WaitingRank `json:"waiting"`
}

// WaitingRank is a blocked rank: the operation it is stuck in and, for a
// receive, the rank it waits for (-1: any).
type WaitingRank struct {
	Rank  int    `json:"rank"`
	Op    int    `json:"op"`
	Label string `json:"label"`
	Line  int    `json:"line,omitempty"`
	Peer  int    `json:"peer"`
}

// WithWaits sorts a timeline's spans by rank and start and fills the gaps
// in each rank's busy time, up to its end, with waits, so that both
// executors draw the same kind of timeline from what they recorded.
func WithWaits(spans []Span, ranks []RankTimes) []Span {
	slices.SortStableFunc(spans, func(a, b Span) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Start, b.Start))
	})
	out := make([]Span, 0, 2*len(spans)+len(ranks))
	k := 0
	for r := range ranks {
		t := 0.0 // the end of the rank's busy time so far
		for ; k < len(spans) && spans[k].Rank == r; k++ {
			if spans[k].Start > t {
				out = append(out, Span{Rank: r, Kind: "wait", Start: t, End: spans[k].Start, Op: spans[k].Op})
			}
			out = append(out, spans[k])
			t = max(t, spans[k].End)
		}
		if ranks[r].End > t {
			out = append(out, Span{Rank: r, Kind: "wait", Start: t, End: ranks[r].End, Op: -1})
		}
	}
	return out
}
