package program

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// RunOptions choose the answers Run gives and how it gets them.
type RunOptions struct {
	// ProgramOptions drive the simulation; Map, Timeline, Flows and
	// MaxMemory the analytic answer too. EagerLimit 0 takes the machine's
	// eager_limit param (bytes) when it has one (runtime.NoEager for 0 B).
	runtime.ProgramOptions
	// Analytic and Simulated select the answers; neither means both.
	Analytic, Simulated bool
	// Topology names the machine's topology to simulate ("": the first).
	Topology string
	// Model is the model section that costs the analytic answer's
	// operations ("": Analyze's default).
	Model string
}

// RunResult holds the answers Run was asked for: the analytic critical
// path (Analyze: every operation costed by the machine's model
// section and processor timings, no contention) and the packet-level
// simulation (runtime.RunProgram).
type RunResult struct {
	Analytic  *runtime.ProgramResult `json:"analytic,omitempty"`
	Simulated *runtime.ProgramResult `json:"simulated,omitempty"`
	// NoAnalytic says, when both answers were asked, why there is no
	// analytic one (a NoModelError's text, with the machine's position):
	// the simulated answer is given alone.
	NoAnalytic string `json:"no_analytic,omitempty"`
	// Model is the model section that costed the analytic answer (ModelOf:
	// MPI, or PVM or Express on a machine without an MPI section).
	Model string `json:"model,omitempty"`
}

// Difference is the simulated makespan's relative difference from the
// analytic one, (simulated - analytic) / analytic; ok is false unless both
// answers finished without a deadlock and the analytic makespan is not 0.
func (r *RunResult) Difference() (d float64, ok bool) {
	a, s := r.Analytic, r.Simulated
	if a == nil || s == nil || a.Deadlock != nil || s.Deadlock != nil || a.Partial || s.Partial || a.Makespan == 0 {
		return 0, false
	}
	return eval.RelativeDifference(s.Makespan, a.Makespan), true
}

// RunFootprint is what Run takes per item of a schedule beyond the
// schedule (ScheduleOptions.Answer): the analysis's or the
// simulation's, or when both are asked the larger of them, the analysis
// being done before the simulation is built. An eager limit the machine
// sets itself is not in it.
func RunFootprint(o RunOptions) runtime.Footprint {
	both := o.Analytic == o.Simulated
	var f runtime.Footprint
	if both || o.Analytic {
		f = AnalyzeFootprint()
	}
	if both || o.Simulated {
		f = f.Max(runtime.ProgramFootprint(o.ProgramOptions))
	}
	return f
}

// Run answers "how long does schedule s take on machine m": analytically,
// by simulation, or both (the default). The schedule's own mapping
// (lang.Schedule.Map, which programs carry) is used unless o.Map is set.
// A deadlock is an answer (its Deadlock set), not an error; cancelling
// ctx returns what was reached and ctx.Err().
func Run(ctx context.Context, m *eval.Machine, s *lang.Schedule, o RunOptions) (*RunResult, error) {
	both := o.Analytic == o.Simulated
	if o.Map == nil {
		o.Map = s.Map
	}
	if o.EagerLimit == 0 {
		if v, err := m.Param("eager_limit"); err == nil && v.Kind == lang.Number {
			if v.Num < 0 || v.Num > math.MaxInt64/2 || v.Num != math.Trunc(v.Num) {
				return nil, fmt.Errorf("machine %q: eager_limit = %s is not a whole number of bytes", m.Name(), v)
			}
			o.EagerLimit = int64(v.Num)
			if o.EagerLimit == 0 {
				o.EagerLimit = runtime.NoEager
			}
		}
	}
	out := &RunResult{}
	if both || o.Analytic {
		model, err := ModelOf(m, o.Model)
		var a *runtime.ProgramResult
		if err == nil {
			a, err = Analyze(ctx, m, s, AnalyzeOptions{Map: o.Map, Timeline: o.Timeline, Flows: o.Flows, Model: model})
		}
		var nm *NoModelError
		switch {
		case both && errors.As(err, &nm):
			out.NoAnalytic = nm.Error()
		case err != nil:
			return nil, err
		default:
			out.Model = model
		}
		out.Analytic = a
	}
	if both || o.Simulated {
		spec, err := m.Spec(o.Topology)
		if err != nil {
			return nil, err
		}
		if o.MaxMemory == 0 {
			o.MaxMemory = m.MaxMemory()
		}
		sr, err := runtime.RunProgram(ctx, spec, s, o.ProgramOptions)
		out.Simulated = sr
		if err != nil {
			// Cancelled while setting up, the simulation has nothing
			// to show, but the analytic answer may be done.
			if ctx.Err() != nil && (sr != nil || out.Analytic != nil) {
				return out, err
			}
			return nil, err
		}
	}
	return out, nil
}
