package programs

// The experiments of seed 004 §3, run from clock-sync.machine: shared by
// this package's tests and validation/.

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"os"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

//go:embed clock-sync.machine
var clockSync []byte

// ClockFile is the name clock-sync.machine is loaded under.
const ClockFile = "examples/programs/clock-sync.machine"

func readClockFile(p string) ([]byte, error) {
	if p == ClockFile {
		return clockSync, nil
	}
	return nil, os.ErrNotExist
}

// ClockMachine loads the XK-XMP-64 with local clocks of clock-sync.machine,
// with its params set (eps, skew: "30ns").
func ClockMachine(sets map[string]string) (*eval.Machine, error) {
	opts := []eval.Option{eval.WithReadFile(readClockFile), eval.WithMachine("xmp64-clocks")}
	for k, v := range sets {
		opts = append(opts, eval.WithSet(k, v))
	}
	return eval.Load(ClockFile, opts...)
}

// RunClockProgram instantiates a program of clock-sync.machine on m with
// args and simulates it with seed.
func RunClockProgram(m *eval.Machine, program string, args map[string]string, seed uint64) (*runtime.ProgramResult, error) {
	p, err := eval.LoadProgram(ClockFile, eval.WithReadFile(readClockFile), eval.WithProgram(program))
	if err != nil {
		return nil, err
	}
	s, err := p.Schedule(m, eval.ScheduleOptions{Args: args})
	if err != nil {
		return nil, err
	}
	return simulate(m, s, seed)
}

func simulate(m *eval.Machine, s *lang.Schedule, seed uint64) (*runtime.ProgramResult, error) {
	spec, err := m.Spec("")
	if err != nil {
		return nil, err
	}
	res, err := runtime.RunProgram(context.Background(), spec, s, runtime.ProgramOptions{Seed: seed})
	if err != nil {
		return nil, err
	}
	if res.Deadlock != nil || res.Partial {
		return nil, fmt.Errorf("%s deadlocked or stopped: %+v", s.Name, res.Deadlock)
	}
	return res, nil
}

// Stats are the minimum, mean and maximum of some values, and their
// root mean square.
type Stats struct{ Min, Mean, Max, RMS float64 }

func statsOf(xs []float64) Stats {
	s := Stats{Min: math.Inf(1), Max: math.Inf(-1)}
	for _, x := range xs {
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
		s.Mean += x
		s.RMS += x * x
	}
	s.Mean /= float64(len(xs))
	s.RMS = math.Sqrt(s.RMS / float64(len(xs)))
	return s
}

// Range is Max - Min.
func (s Stats) Range() float64 { return s.Max - s.Min }

// OffsetErrors runs clock synchronisation (Algorithm 2) once and returns
// each core's error: the offset it learned against core 0 less the true
// difference between its clock and core 0's, in seconds.
func OffsetErrors(m *eval.Machine, average bool, seed uint64) ([]float64, error) {
	res, err := RunClockProgram(m, "clocksync", map[string]string{"average": b01(average)}, seed)
	if err != nil {
		return nil, err
	}
	learned := res.Values["offset"]
	if len(res.Clocks) != len(learned) {
		return nil, fmt.Errorf("the run reports %d clocks for %d cores: the machine's clocks are perfect", len(res.Clocks), len(learned))
	}
	errs := make([]float64, len(learned))
	for r, off := range learned {
		errs[r] = off - (res.Clocks[r].Offset - res.Clocks[0].Offset)
	}
	return errs, nil
}

func b01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// BarrierAgreed synchronises the clocks, enters the barrier at the time
// core 0 chose, and returns every core's time through it as the core
// measured it with its own clock.
func BarrierAgreed(m *eval.Machine, average bool, seed uint64) ([]float64, error) {
	res, err := RunClockProgram(m, "clocksync", map[string]string{"average": b01(average), "then_barrier": "1"}, seed)
	if err != nil {
		return nil, err
	}
	return res.Values["through"], nil
}

// Latencies are one burst's message latencies as the receiving cores
// measured them (their corrected clocks less the stamp their sender's
// corrected clock gave) and as they truly were.
type Latencies struct{ Measured, True []float64 }

// TransposeAgreed synchronises the clocks, starts one burst of seed 004's
// transpose of n-byte messages at the time core 0 chose, and returns the
// latencies.
func TransposeAgreed(m *eval.Machine, n string, seed uint64) (Latencies, error) {
	res, err := RunClockProgram(m, "clocksync", map[string]string{"then_transpose": "1", "n": n}, seed)
	if err != nil {
		return Latencies{}, err
	}
	return Latencies{Measured: res.Values["latency"], True: res.TrueValues["latency"]}, nil
}

// Through runs program statements (parasol run's inline PROGRAM) on m and
// returns the simulated result.
func Through(m *eval.Machine, text string, seed uint64) (*runtime.ProgramResult, error) {
	p, err := eval.ParseProgramBody(m, text)
	if err != nil {
		return nil, err
	}
	s, err := p.Schedule(m, eval.ScheduleOptions{})
	if err != nil {
		return nil, err
	}
	return simulate(m, s, seed)
}
