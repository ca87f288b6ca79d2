package study

import (
	"context"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/internal/workers"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// Sweep is a study: what runs at every point, and the lists whose cross
// product are the points. It runs an operation (Options.Op), with Loads
// an open-loop load, with Compare a comparison of a model primitive, or
// with Program a program.
type Sweep struct {
	// Machine is the machine every point derives from, with the point's
	// values of the machine's axes (eval.Machine.Derive): it is loaded
	// once, not at every point. Its topology (eval.WithTopology) is the
	// one every point simulates and runs programs on.
	Machine *eval.Machine
	// Packet, when not nil, overrides the machine's packet payload (bytes).
	Packet *int
	// Options is the experiment at every point; its Seed is the sweep's,
	// from which each point's is derived (PointSeed), and its Size,
	// Routing and Switching are the point's.
	Options runtime.Options
	// Compare, when not "", is the model primitive compared with its
	// simulation at every point (Options.Op, when not "", overrides the
	// operation that simulates it).
	Compare string
	// Program, when not nil, makes the program run at every point, and
	// ProgramOptions says how (Analytic, Simulated, MaxEvents,
	// MaxMemory); the point's mapping, seed, routing and switching are
	// set at each point.
	Program        ProgramFunc
	ProgramOptions program.RunOptions

	// Axes, Routings, Switchings, Sizes and Loads are the lists whose
	// cross product are the points (CrossProduct).
	Axes                 []Axis
	Routings, Switchings []string
	Sizes                []int64
	Loads                []runtime.Load

	// Workers is how many points run at once (≤ 0: one per core); a
	// point gets the workers left over, for its runs.
	Workers int
	// Check, when not nil, vets each point's network before the point
	// runs, as the command line vets its flags.
	Check func(rs *runtime.Spec, p Point) error
	// Record is the "run" object every point's starts from: the
	// command, the source of the machine and the version.
	Record results.Run
}

// ProgramFunc makes the program a point runs on the point's machine m,
// with the point's arguments (its Arg axes) and seed.
type ProgramFunc func(ctx context.Context, m *eval.Machine, p Point, args map[string]string, seed uint64) (*Program, error)

// Program is a program as a point runs it: what it is, its schedule and
// where its ranks are placed (nil: linearly).
type Program struct {
	Info     *results.Program
	Schedule *lang.Schedule
	Map      []int
}

// Result is what a point produced: a simulation (Sim), with Loads an
// open-loop run (Load, whose Result is Sim), with Compare a comparison
// (Compare, whose Result is Sim), or with Program the program's answers
// (Answers; Sim nil).
type Result struct {
	Point   Point
	Machine *eval.Machine
	Run     *results.Run // what produced the result: the point's parameters
	Sim     *runtime.Result
	Compare *eval.Comparison
	Load    *runtime.LoadResult
	Program *Program
	Answers *program.RunResult
	// Err is an error that came with a result, such as an interruption;
	// the result is as far as the point got.
	Err error
}

// Points are the sweep's points, the whole cross product.
func (s *Sweep) Points() ([]Point, error) {
	return CrossProduct(s.Axes, s.Routings, s.Switchings, s.Sizes, s.Loads)
}

// Network derives the machine with sets and compiles its topology,
// with the packet size override applied.
func (s *Sweep) Network(sets []eval.Set) (*eval.Machine, *runtime.Spec, error) {
	m, err := s.Machine.Derive(sets...)
	if err != nil {
		return nil, nil, err
	}
	rs, err := m.Spec("")
	if err != nil {
		return nil, nil, err
	}
	if s.Packet != nil {
		rs.Packet.Payload = *s.Packet
	}
	return m, rs, nil
}

// sized is the machine and network of a point whose messages are size
// bytes (negative: none given): a machine whose costs depend on the
// message size (eval.MessageSizeParam) is derived for it, for the size
// compare simulates when the sweep compares a primitive.
func (s *Sweep) sized(m *eval.Machine, rs *runtime.Spec, size int) (*eval.Machine, *runtime.Spec, error) {
	if s.Compare != "" {
		n, err := eval.CompareMessageSize(m, s.Compare, size)
		if err != nil {
			return nil, nil, err
		}
		size = n
	}
	d, changed, err := m.ForMessageSize(size)
	if err != nil || !changed {
		return m, rs, err
	}
	if rs, err = d.Spec(""); err != nil {
		return nil, nil, err
	}
	if s.Packet != nil {
		rs.Packet.Payload = *s.Packet
	}
	return d, rs, nil
}

// Run runs the points over s.Workers goroutines and hands each result to
// emit in point order, as soon as it and those before it are done; done,
// when not nil, is called as each point finishes, in any order (for a
// progress bar). The first error stops the sweep: a point that produced
// no result, emit's, or one that came with a result after it is emitted.
func (s *Sweep) Run(ctx context.Context, points []Point, emit func(*Result) error, done func()) error {
	w := workers.Count(s.Workers, len(points))
	inner := max(1, s.Workers/w)
	return workers.Stream(ctx, w, len(points), 0, func(ctx context.Context, i int) *Result {
		r := s.runPoint(ctx, points[i], inner)
		if done != nil {
			done()
		}
		return r
	}, func(_ int, r *Result) error {
		if r.Sim == nil && r.Answers == nil {
			return r.Err
		}
		if err := emit(r); err != nil {
			return err
		}
		return r.Err
	})
}

// run is the "run" object of a point on m: the template's, the machine's
// name and the point's values of the machine's axes, its routing and
// switching (those of rs when the point leaves them to the machine) and
// its seed.
func (s *Sweep) run(m *eval.Machine, rs *runtime.Spec, p Point, seed uint64) *results.Run {
	run := s.Record
	run.Machine = m.Name()
	sets, _ := p.MachineSets(s.Axes)
	run.Sets = []string{}
	for _, st := range sets {
		run.Sets = append(run.Sets, st.Path+"="+st.Value)
	}
	run.Seed = &seed
	run.Routing, run.Switching = p.Routing, p.Switching
	if rs != nil {
		if run.Routing == "" {
			run.Routing = rs.Routing
		}
		if run.Routing == "" {
			run.Routing = "shortest"
		}
		if run.Switching == "" {
			run.Switching = rs.Switching.String()
		}
	}
	return &run
}

// runPoint runs one point with inner workers for its runs.
func (s *Sweep) runPoint(ctx context.Context, p Point, inner int) *Result {
	if s.Program != nil {
		return s.runProgram(ctx, p)
	}
	sets, _ := p.MachineSets(s.Axes)
	m, rs, err := s.Network(sets)
	if err == nil {
		m, rs, err = s.sized(m, rs, int(p.Size))
	}
	if err != nil {
		return &Result{Point: p, Err: err}
	}
	if s.Check != nil {
		if err := s.Check(rs, p); err != nil {
			return &Result{Point: p, Err: err}
		}
	}
	opts := s.Options
	opts.Routing, opts.Switching = p.Routing, p.Switching
	opts.Size = int(p.Size)
	opts.Seed = PointSeed(s.Options.Seed, p.Index)
	opts.Workers = inner
	run := s.run(m, rs, p, opts.Seed)
	run.Op, run.Size, run.Runs = opts.Op, &opts.Size, opts.Runs
	r := &Result{Point: p, Machine: m, Run: run}
	switch {
	case p.Load != nil:
		opts.Runs = 0
		run.Runs = 0
		r.Load, r.Err = runtime.Offered(ctx, rs, opts, *p.Load)
		if r.Load != nil {
			r.Sim = r.Load.Result
		}
	case s.Compare != "":
		c, err := eval.Compare(ctx, m, rs, s.Compare, opts)
		if err != nil {
			return &Result{Point: p, Err: err}
		}
		run.Op, r.Compare, r.Sim = c.Op, c, c.Result
		size := c.MessageSize
		run.Size = &size
	default:
		r.Sim, r.Err = runtime.Simulate(ctx, rs, opts)
	}
	return r
}

// runProgram runs the sweep's program at one point: the point's values
// on the machine and as the program's arguments, its routing and
// switching, and its own seed.
func (s *Sweep) runProgram(ctx context.Context, p Point) *Result {
	sets, args := p.MachineSets(s.Axes)
	m, err := s.Machine.Derive(sets...)
	if err != nil {
		return &Result{Point: p, Err: err}
	}
	seed := PointSeed(s.Options.Seed, p.Index)
	prog, err := s.Program(ctx, m, p, args, seed)
	if err != nil {
		return &Result{Point: p, Err: err}
	}
	o := s.ProgramOptions
	o.Map, o.Seed, o.Routing, o.Switching = prog.Map, seed, p.Routing, p.Switching
	res, err := program.Run(ctx, m, prog.Schedule, o)
	if err != nil {
		return &Result{Point: p, Err: err}
	}
	var rs *runtime.Spec
	if p.Routing == "" || p.Switching == "" {
		// The point's record names what ran, as a simulated point's does.
		rs, _ = m.Spec("")
	}
	run := s.run(m, rs, p, seed)
	return &Result{Point: p, Machine: m, Run: run, Program: prog, Answers: res}
}
