// Command parasol describes parallel machines and predicts what
// communication on them costs. It checks, evaluates, formats and converts
// .machine files, runs the discrete-event network simulation, and offers an
// interactive REPL.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// command is one subcommand.
type command struct {
	name, summary string
	run           func(env *env, args []string) error
}

var commands []*command

func init() {
	commands = []*command{
		{"check", "report every error in machine files", runCheck},
		{"eval", "evaluate expressions: parameters, primitive costs, derived indexes", runEval},
		{"sim", "simulate an operation on the packet-level network", runSim},
		{"sweep", "simulate, compare or run a program over a cross product of sizes, settings, routings, loads and arguments", runSweep},
		{"merge", "join the outputs of the shards of a sweep or of sim --runs", runMerge},
		{"route", "show a route, or check a routing function for deadlock", runRoute},
		{"compare", "a primitive's analytic cost beside the simulated one", runCompare},
		{"run", "predict a program's time on a machine, analytically and by simulation", runRun},
		{"fit", "fit a cost model's parameters to measurements", runFit},
		{"probe", "measure real hosts' communication and write a machine description", runProbe},
		{"import", "print a Parasol I file in the modern syntax", runImport},
		{"fmt", "format machine files canonically", runFmt},
		{"repl", "interactive prompt", runRepl},
		{"machines", "list the standard machines, or the machines in a file", runMachines},
		{"draw", "draw a topology as a Graphviz graph, hot links marked from a simulation", runDraw},
		{"completion", "print a shell completion script for bash, zsh or fish", runCompletion},
		{"version", "print the version and build information", runVersion},
	}
}

// env is what a command reads and writes; tests substitute buffers.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	isTerminal     bool // stdout and stderr are terminals: progress is shown, the REPL is interactive
	// session is the REPL's machine, which the MACHINE argument
	// sessionMachine names when the REPL runs a command.
	session *eval.Machine
	// sessionSource is where the REPL loaded session from, for the "run"
	// of results ("" when the session started empty).
	sessionSource string
}

// exitError carries an exit status with an already printed message.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageError is a mistake on the command line (exit status 2).
func usageError(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, isTerminal: isTerminal(os.Stdout) && isTerminal(os.Stderr)}
	os.Exit(run(e, os.Args[1:]))
}

func run(e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 && args[0] == "help" {
			return run(e, []string{args[1], "--help"})
		}
		usage(e.stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "--version" {
		args = append([]string{"version"}, args[1:]...)
	}
	for _, c := range commands {
		if c.name == args[0] {
			return report(e, args[1:], c.run(e, args[1:]))
		}
	}
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	msg := fmt.Sprintf("parasol: unknown command %q", args[0])
	if s := suggest(args[0], names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	} else {
		msg += lang.DidYouMean(args[0], names)
	}
	return report(e, args, usageError("%s\nRun 'parasol --help' for the list of commands.", msg))
}

func usage(w io.Writer) {
	fmt.Fprint(w, `Parasol describes parallel machines and predicts what communication on them costs.

Usage:
  parasol COMMAND [arguments]

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
A MACHINE is a .machine file path or std:NAME for a standard machine
('parasol machines' lists them). Values print with units; with --json they
are numbers in SI base units (s, B, B/s, Hz).

eval, sim, sweep, compare, route and run print results as --format text
(the default), json (--json for short: each result has a "run" object
saying what produced it: machine, source, op, size, seed, runs, routing,
switching, every --set and parasol's version) or csv (a header row, then
one row per result).

Run 'parasol COMMAND --help' for a command's flags. With --json, results
and errors are JSON lines on stdout; an error is
{"error": {"file", "line", "col", "message"}}, one per diagnostic.

`+exitCodesHelp)
}

func suggest(name string, candidates []string) string {
	sort.Strings(candidates)
	for _, c := range candidates {
		if strings.HasPrefix(c, name) || strings.HasPrefix(name, c) {
			return c
		}
	}
	return ""
}
