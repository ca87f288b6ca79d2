// Package eval turns a parsed machine description into a Machine model and
// answers queries about it: the "SAD evaluator" interface of Parasol I, in
// which a performance predictor asks the machine for parameters and costs
// through function calls.
//
// Loading resolves every reference, detects reference cycles (reporting
// each step with its position), checks units, and compiles every expression
// once into closures whose names are resolved to slots or constants, so a
// query does no map look-ups and a compiled cost function runs without
// allocating. All errors of a file are collected and reported together.
//
// A loaded Machine is immutable and safe for concurrent use:
//
//	m, err := eval.Load("examples/parasol1.machine")
//	v, err := m.Eval("topology(100).link(0).linkspeed")   // 2.667231MB/s
//	cost, err := m.Call("PVM.send", 1024, 43, 45)          // a primitive's cost
//	fast, err := m.Derive(eval.Set{Path: "topology(100).link(0).linkspeed", Value: "5MB/s"})
//
// Derive makes a virtual machine: the same description with values
// overridden, everything that depends on them recomputed.
//
// The evaluator drives the runtime: Machine.Spec compiles a topology into
// the runtime's network description, and every query is answered here both
// ways, by evaluating the machine's cost expressions or by running the
// simulation:
//
//	spec, err := m.Spec("")                                   // the machine as a network
//	c, err := eval.Compare(ctx, m, spec, "MPI.bcast", opts)   // a primitive, analytic beside simulated
//	names, ds := eval.Inspect("my.machine")                   // load errors, warnings, what the simulator rejects
//
// Programs are split along one line. Their text is the language's, and
// eval compiles it as it compiles any expression of a machine, with the
// same resolver, scopes and closures: Machine.Program, LoadProgram and
// ParseProgramBody give a Program, whose Schedule instantiates it on a
// machine's processors into a lang.Schedule (mapping, matching sends to
// receives, the static deadlock check and the clock operations' registers
// are part of that instantiation, as a program's errors are reported as it
// is built), and Load checks a file's programs with the rest of the file.
// Executing a schedule, the analytic answer with its event queue and Run
// with the simulation beside it, is package eval/program's: it needs only
// this package's exported API, and eval, which loads programs, cannot
// import a package that imports it.
package eval
