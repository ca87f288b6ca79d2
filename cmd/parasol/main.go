// Command parasol describes parallel machines and predicts what
// communication on them costs. It checks, evaluates, formats and converts
// .machine files, runs the discrete-event network simulation, and offers an
// interactive REPL.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// A command is one subcommand, declared once, beside the code that runs
// it: the list of commands in the top-level help, its --help, the shell
// completion scripts and the REPL's :commands are all made from its
// declaration, so a new command, or a new flag of one, is one edit.
type command struct {
	name    string
	summary string // one line, for the list of commands and completion menus
	// args is the usage line after "parasol NAME" ("[flags] MACHINE --op
	// OP"); completion reads the positional arguments from its
	// capitalised words (see usageArgs).
	args string
	doc  string // what --help says after the usage line
	// flags declares the command's flags on fs and returns the function
	// that runs it on the arguments left once fs has parsed the command
	// line. Declaring runs nothing, so --help and completion read the
	// flags from fs. e is where the command will read and write.
	flags func(e *env, fs *flag.FlagSet) (run func(args []string) error)
	// subs are the subcommands (probe serve, probe measure), one of which
	// the first argument names; a command with subcommands has no flags of
	// its own.
	subs []*command
}

// commands is the command table, in the order the help lists them.
var commands []*command

func init() {
	// Set here rather than where it is declared: completion and the REPL
	// read the table, which would make its initialization a cycle.
	commands = []*command{checkCmd, evalCmd, simCmd, sweepCmd, mergeCmd,
		routeCmd, compareCmd, runCmd, fitCmd, probeCmd, importCmd,
		fmtCmd, replCmd, lspCmd, serveCmd, machinesCmd, drawCmd, completionCmd, versionCmd}
}

// commandNamed is the command called name in the table, or nil.
func commandNamed(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// noFlags declares a command that takes no flags (but --help) and runs run.
func noFlags(run func(e *env, args []string) error) func(*env, *flag.FlagSet) func([]string) error {
	return func(e *env, _ *flag.FlagSet) func([]string) error {
		return func(args []string) error { return run(e, args) }
	}
}

// exec runs c, named path on the command line ("sim", "probe serve"), with
// its arguments: it declares c's flags, parses them and runs c, or prints
// c's help for --help.
func (c *command) exec(e *env, path string, args []string) error {
	if c.subs != nil {
		return c.execSub(e, path, args)
	}
	fs := newFlagSet(path)
	run := c.flags(e, fs)
	pos, err := parseInterspersed(fs, args)
	if err == flag.ErrHelp {
		c.help(e.stdout, path, fs)
	}
	if err != nil {
		return err
	}
	err = run(pos)
	var ee *exitError
	if errors.As(err, &ee) && ee.usage {
		ee.msg += "\n" + c.usageLine(path, ee.form)
		ee.usage, ee.form = false, ""
	}
	return err
}

// usageLine is c's usage line, named path on the command line, as its
// declaration gives it; with form, of a declaration that lists forms
// ("[flags] MODEL DATA | --free A,B,... [flags] MACHINE FUNCTION DATA"),
// only the form that holds that word ("--free").
func (c *command) usageLine(path, form string) string {
	args := c.args
	if form != "" {
		for _, f := range strings.Split(c.args, " | ") {
			if slices.Contains(strings.Fields(f), form) {
				args = f
				break
			}
		}
	}
	return strings.TrimRight("Usage: parasol "+path+" "+args, " ")
}

// help prints c's --help: its usage line, its description and its flags.
func (c *command) help(w io.Writer, path string, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: parasol %s %s\n\n%s\n", path, c.args, strings.TrimSpace(c.doc))
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}

// execSub runs the subcommand the first argument names.
func (c *command) execSub(e *env, path string, args []string) error {
	var names, usages, helps []string
	for _, s := range c.subs {
		names = append(names, s.name)
		usages = append(usages, fmt.Sprintf("parasol %s %s %s", path, s.name, s.args))
		helps = append(helps, fmt.Sprintf("'parasol %s %s --help'", path, s.name))
	}
	usage := "Usage: " + strings.Join(usages, "\n       ")
	want := listWords(names, "or")
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Fprintf(e.stdout, "%s\n\n%s\n\nRun %s for the flags.\n", usage, strings.TrimSpace(c.doc), listWords(helps, "or"))
		return nil
	}
	if len(args) == 0 {
		return usageError("parasol %s: need %s\n%s", path, want, usage)
	}
	for _, s := range c.subs {
		if s.name == args[0] {
			return s.exec(e, path+" "+s.name, args[1:])
		}
	}
	return usageError("parasol %s: unknown subcommand %q; want %s\n%s", path, args[0], want, usage)
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
	// ctx, when set, bounds a command's work: parasol serve gives each
	// request's command its deadline. Nil is context.Background().
	ctx context.Context
	// machines, when set, is where loading a machine looks first (parasol
	// serve's cache of machines by content).
	machines *machineCache
}

// interruptible is the context a long command works under: e's, cancelled
// also by Ctrl-C, so that a simulation stops and prints what it has.
func (e *env) interruptible() (context.Context, context.CancelFunc) {
	ctx := e.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return signal.NotifyContext(ctx, os.Interrupt)
}

// exitError carries an exit status with an already printed message.
type exitError struct {
	code int
	msg  string
	// usage asks exec to follow msg with the command's usage line, or
	// with the form of it that holds the word form when form is set.
	usage bool
	form  string
}

func (e *exitError) Error() string { return e.msg }

// usageError is a mistake on the command line (exit status 2).
func usageError(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

// argsError is a usage error in a command's arguments, which exec
// follows with the usage line of the command's declaration.
func argsError(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...), usage: true}
}

// formArgsError is argsError for one form of a command that has several
// (fit MODEL DATA, fit --free …): exec follows it with that form's usage
// line, the one holding the word form.
func formArgsError(form, format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...), usage: true, form: form}
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
	if c := commandNamed(args[0]); c != nil {
		if err := memoryEnv(); err != nil {
			return report(e, args[1:], &exitError{code: 2, msg: fmt.Sprintf("parasol %s: %v", c.name, err)})
		}
		return report(e, args[1:], c.exec(e, c.name, args[1:]))
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

// listWords lists words in a sentence: "a", "a or b", "a, b or c".
func listWords(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}
