package results

import (
	"strconv"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/runtime"
)

// Sim is sim's JSON object: runtime.Result's keys, "notes" when there
// are any, then "run".
type Sim struct {
	*runtime.Result
	// Notes are the notes sim's text prints beside the figures (stopped
	// early, quantiles summarised), absent when there are none.
	Notes []string `json:"notes,omitempty"`
	Run   *Run     `json:"run"`
}

// SimHeader names the columns of sim's CSV, one row per result; times
// are in seconds.
var SimHeader = []string{"op", "runs", "messages", "latency_min", "latency_mean", "latency_max",
	"latency_p50", "latency_p90", "latency_p99", "makespan", "makespan_max", "send_time_mean", "send_time_max",
	"hops_mean", "hops_max", "link_load_max", "proc_load_max", "link_util_mean", "link_util_max",
	"events", "deadlock", "partial", "undelivered"}

// SimRow is a result's row under SimHeader.
func SimRow(r *runtime.Result) []string {
	f, i := Float, strconv.Itoa
	return []string{r.Op, i(r.Runs), i(r.Messages), f(r.Latency.Min), f(r.Latency.Mean), f(r.Latency.Max),
		f(r.Latency.P50), f(r.Latency.P90), f(r.Latency.P99), f(r.Makespan), f(r.MakespanMax), f(r.SendTime.Mean), f(r.SendTime.Max),
		f(r.Hops.Mean), i(r.Hops.Max), i(r.LinkLoadMax), i(r.ProcLoadMax), f(r.LinkUtil.Mean), f(r.LinkUtil.Max),
		strconv.FormatInt(r.Events, 10), strconv.FormatBool(r.Deadlock), strconv.FormatBool(r.Partial), i(r.Undelivered)}
}

// Compare is compare's JSON object, eval.Comparison's fields in its
// order, with "simulated" and "difference" null when the simulation
// deadlocked or was stopped early ("deadlock", "partial"), and
// "bisection_exact" when the primitive rests on the bisection width.
type Compare struct {
	Primitive      string             `json:"primitive"`
	Params         []string           `json:"params"`
	Args           map[string]float64 `json:"args"`
	Op             string             `json:"op"`
	Metric         string             `json:"metric"`
	Traffic        string             `json:"traffic"`
	MessageSize    int                `json:"message_size"`
	Analytic       any                `json:"analytic"`
	Simulated      any                `json:"simulated"`
	Difference     any                `json:"difference"`
	Deadlock       bool               `json:"deadlock"`
	Partial        bool               `json:"partial"`
	Note           string             `json:"note,omitempty"`
	Result         *runtime.Result    `json:"result"`
	BisectionExact *bool              `json:"bisection_exact,omitempty"`
	// Notes are the notes compare's text prints (Note, and that the
	// analytic cost rests on a bound), absent when there are none.
	Notes []string `json:"notes,omitempty"`
	Run   *Run     `json:"run,omitempty"`
}

// NewCompare is c's object; bisectionExact is whether the primitive's
// bisection width is exact, nil when it rests on none.
func NewCompare(c *eval.Comparison, bisectionExact *bool) Compare {
	out := Compare{Primitive: c.Primitive, Params: c.Params, Args: c.Args, Op: c.Op, Metric: c.Metric,
		Traffic: c.Traffic, MessageSize: c.MessageSize, Analytic: Number(c.Analytic),
		Deadlock: c.Result.Deadlock, Partial: c.Result.Partial, Note: c.Note, Result: c.Result,
		BisectionExact: bisectionExact}
	if !out.Deadlock && !out.Partial {
		out.Simulated, out.Difference = Number(c.Simulated), Number(c.Difference)
	}
	return out
}

// CompareHeader names the columns of compare's CSV; times are in seconds.
var CompareHeader = []string{"primitive", "op", "metric", "message_size", "analytic", "simulated", "difference", "deadlock", "partial"}

// CompareRow is a comparison's row under CompareHeader: the simulated
// figure and the difference empty when the simulation deadlocked or was
// stopped early.
func CompareRow(c *eval.Comparison) []string {
	sim, diff := "", ""
	if !c.Result.Deadlock && !c.Result.Partial {
		sim, diff = Float(c.Simulated), Float(c.Difference)
	}
	return []string{c.Primitive, c.Op, c.Metric, strconv.Itoa(c.MessageSize), Float(c.Analytic), sim, diff,
		strconv.FormatBool(c.Result.Deadlock), strconv.FormatBool(c.Result.Partial)}
}

// Load is one point of an open-loop run (sim --load) as JSON: the point's
// runtime.LoadResult, the figures it does not measure as null, then "run".
type Load struct {
	*runtime.LoadResult
	Unmeasured
	// Notes are the notes sim's text prints below the curve that concern
	// this point (why it kept one queue where --stripes asked for more).
	Notes []string `json:"notes,omitempty"`
	Run   *Run     `json:"run"`
}

// Unmeasured, embedded beside a *runtime.LoadResult, makes the keys of
// runtime.Result an open-loop point does not measure (send times,
// processor loads) null in JSON rather than 0: its fields, shallower than
// the embedded Result's, take their keys, and are always nil.
type Unmeasured struct {
	SendTime    *runtime.SendStats `json:"send_time"`
	ProcLoadMax *int               `json:"proc_load_max"`
	ProcLoadAvg *float64           `json:"proc_load_max_mean"`
}

// LoadHeader names the columns of an open-loop run's CSV, one row per
// point; times in seconds, loads as shares of the injection bandwidth;
// latency_bound "lower" for a saturated point, whose latencies are lower
// bounds, else empty (runtime.LoadResult).
var LoadHeader = []string{"load", "process", "offered", "accepted", "saturated", "settled", "drained", "marked", "undelivered",
	"latency_min", "latency_mean", "latency_max", "latency_p50", "latency_p90", "latency_p99", "hops_mean",
	"cycle", "warmup", "measure", "link_util_mean", "link_util_max", "events", "accepted_error", "latency_bound"}

// LoadRow is a point's row under LoadHeader.
func LoadRow(p *runtime.LoadResult) []string {
	f, b, i := Float, strconv.FormatBool, strconv.Itoa
	return []string{f(p.Load), p.Process, f(p.Offered), f(p.Accepted), b(p.Saturated), b(p.Settled), b(p.Drained), i(p.Marked), i(p.Undelivered),
		f(p.Latency.Min), f(p.Latency.Mean), f(p.Latency.Max), f(p.Latency.P50), f(p.Latency.P90), f(p.Latency.P99), f(p.Hops.Mean),
		f(p.Cycle), f(p.Warmup), f(p.Measure), f(p.LinkUtil.Mean), f(p.LinkUtil.Max), strconv.FormatInt(p.Events, 10),
		f(p.AcceptedError), p.LatencyBound}
}

// LinkHeader names the per-wire columns of a link table (sim --link-csv).
var LinkHeader = []string{"link", "from", "to", "messages", "bytes", "util"}

// LinkRows are the rows of a link table, each after the given leading
// cells (none when lead is "").
func LinkRows(lead string, links []runtime.LinkLoad) [][]string {
	rows := make([][]string, 0, len(links))
	for _, ll := range links {
		row := []string{strconv.Itoa(ll.Link), strconv.Itoa(ll.From), strconv.Itoa(ll.To), Float(ll.Messages), Float(ll.Bytes), Float(ll.Util)}
		if lead != "" {
			row = append([]string{lead}, row...)
		}
		rows = append(rows, row)
	}
	return rows
}

// Program is the "program" object of a program's result: what ran.
type Program struct {
	Name   string            `json:"name"`
	Source string            `json:"source"`
	Kind   string            `json:"kind"` // program, goal, trace, inline
	Ranks  int               `json:"ranks"`
	Ops    int               `json:"operations"`
	Args   map[string]string `json:"args,omitempty"`
	Map    string            `json:"map"`
}

// ProgramRun is run's JSON object: one answer's fields at the top level,
// or both under "analytic" and "simulated" with their difference.
type ProgramRun struct {
	Program *Program `json:"program"`
	*runtime.ProgramResult
	Analytic   *runtime.ProgramResult `json:"analytic,omitempty"`
	Simulated  *runtime.ProgramResult `json:"simulated,omitempty"`
	Difference *any                   `json:"difference,omitempty"`
	// NoAnalytic says why there is no analytic answer beside the
	// simulated one (program.RunResult.NoAnalytic).
	NoAnalytic string `json:"no_analytic,omitempty"`
	// Model is the model section that costed the analytic answer when it
	// is not MPI (program.RunResult.Model).
	Model string `json:"model,omitempty"`
	// Notes are the notes the text output prints beside the answer
	// (ranks sharing a processor), absent when there are none.
	Notes []string `json:"notes,omitempty"`
	Run   *Run     `json:"run"`
}

// NewProgramRun is the object of program p's answers res.
func NewProgramRun(p *Program, res *program.RunResult, run *Run) ProgramRun {
	j := ProgramRun{Program: p, Run: run, NoAnalytic: res.NoAnalytic}
	if res.Model != program.ModelSections[0] {
		j.Model = res.Model
	}
	switch {
	case res.Analytic != nil && res.Simulated != nil:
		j.Analytic, j.Simulated = res.Analytic, res.Simulated
		var d any // null when there is no difference to give
		if v, ok := res.Difference(); ok {
			d = Number(v)
		}
		j.Difference = &d
	case res.Analytic != nil:
		j.ProgramResult = res.Analytic
	default:
		j.ProgramResult = res.Simulated
	}
	return j
}

// ProgramPointHeader are a program's columns after a sweep point's
// parameters: each answer's makespan and the simulated one's difference
// from the analytic (empty when an answer is missing or deadlocked).
var ProgramPointHeader = []string{"program", "ranks", "operations", "analytic", "simulated", "difference", "deadlock"}

// ProgramPointRow is a program point's row under ProgramPointHeader.
func ProgramPointRow(p *Program, res *program.RunResult) []string {
	figure := func(pr *runtime.ProgramResult) string {
		if pr == nil || pr.Deadlock != nil || pr.Partial {
			return ""
		}
		return Float(pr.Makespan)
	}
	diff := ""
	if d, ok := res.Difference(); ok {
		diff = Float(d)
	}
	return []string{p.Name, strconv.Itoa(p.Ranks), strconv.Itoa(p.Ops), figure(res.Analytic), figure(res.Simulated), diff,
		strconv.FormatBool(Deadlocked(res))}
}

// Deadlocked reports whether an answer of res deadlocked.
func Deadlocked(res *program.RunResult) bool {
	for _, pr := range []*runtime.ProgramResult{res.Analytic, res.Simulated} {
		if pr != nil && pr.Deadlock != nil {
			return true
		}
	}
	return false
}
