package program

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/internal/workers"
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
	// Model is the model section that costs the analytic answer's
	// operations ("": Analyze's default).
	Model string
	// Workers is how many cores Run may use (0: GOMAXPROCS). With two or
	// more, both answers asked, and room for both in MaxMemory, the
	// analytic answer is worked out beside the simulation; the answers
	// are the same either way.
	Workers int
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
	if o.MaxMemory == 0 {
		o.MaxMemory = m.MaxMemory()
	}
	analytic := func(ctx context.Context) error {
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
			return err
		default:
			out.Model = model
		}
		out.Analytic = a
		return nil
	}
	var (
		sr   *runtime.ProgramResult
		serr error
	)
	simulated := func(ctx context.Context) {
		var spec *runtime.Spec
		if spec, serr = m.Spec(""); serr == nil {
			sr, serr = runtime.RunProgram(ctx, spec, s, o.ProgramOptions)
		}
	}
	if both && together(s, o) {
		// The two answers share nothing but the schedule, which both only
		// read: worked out at once they are what they are one after the
		// other. The analytic answer's error stops the simulation, whose
		// answer would not be given.
		err := workers.For(ctx, 2, 2, nil, func(ctx context.Context, _ struct{}, i int) error {
			if i == 0 {
				return analytic(ctx)
			}
			simulated(ctx)
			return nil
		})
		if err != nil {
			return nil, err
		}
	} else {
		if both || o.Analytic {
			if err := analytic(ctx); err != nil {
				return nil, err
			}
		}
		if both || o.Simulated {
			simulated(ctx)
		}
	}
	if both || o.Simulated {
		out.Simulated = sr
		if serr != nil {
			// Cancelled while setting up, the simulation has nothing
			// to show, but the analytic answer may be done.
			if ctx.Err() != nil && (sr != nil || out.Analytic != nil) {
				return out, serr
			}
			return nil, serr
		}
	}
	return out, nil
}

// together tells whether Run may work out both answers of s at once: o
// allows two workers, and the memory limit holds both answers' working
// memory beside the schedule (one after the other, it need hold only the
// larger: RunFootprint).
func together(s *lang.Schedule, o RunOptions) bool {
	if workers.Count(o.Workers, 2) < 2 {
		return false
	}
	p := runtime.ProgramFootprint(o.ProgramOptions)
	sends := int64(0)
	for i := range s.Ops {
		if s.Ops[i].Kind == lang.OpSend {
			sends++
		}
	}
	ops, deps, ranks := int64(len(s.Ops)), int64(len(s.Deps)), int64(s.Ranks)
	need := limits.Add(runtime.ScheduleBytes(s), analyzeBytes(s), p.Bytes(ops, sends, deps, ranks))
	return need <= limits.Or(o.MaxMemory)
}
