// Package program executes SPMD programs, GOAL schedules and message
// traces on a loaded machine: it answers "how long does this schedule
// take" analytically (Analyze: every operation costed by the machine's
// model section and processor timings, followed event by event on a
// queue of its own, nothing contending in the network) and by simulation
// (runtime.RunProgram), the two side by side in Run.
//
// A schedule comes from the language side, package eval, which compiles a
// program's statements as it compiles any expression of a machine and
// instantiates them into a lang.Schedule (Program.Schedule; the mapping,
// the matching of sends to receives and the static deadlock check are
// done there, as the schedule is built), or from parser.ReadGOAL and
// parser.ReadTrace. This package needs only eval's exported API: eval
// loads and checks programs with the machine file that holds them, so it
// cannot import what executes them.
//
//	m, err := eval.Load("std:xmp64")
//	prog, err := eval.LoadProgram("examples/programs/jacobi.machine")
//	s, err := prog.Schedule(m, eval.ScheduleOptions{Ranks: 64})
//	ans, err := program.Run(ctx, m, s, program.RunOptions{}) // ans.Analytic, ans.Simulated
package program
