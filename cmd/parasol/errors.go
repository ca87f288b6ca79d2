package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/lang"
)

// Exit statuses, as `parasol --help` and the README document them.
const (
	exitOK          = 0
	exitInput       = 1 // errors in the input: files, expressions, values
	exitUsage       = 2 // mistakes on the command line
	exitDeadlock    = 3 // a simulation deadlocked (the cycle is reported)
	exitInterrupted = 130
)

const exitCodesHelp = `Exit status:
  0    success
  1    errors in the input (each reported as file:line:col with the source line)
  2    usage: an unknown command or flag, a missing or invalid argument
  3    a simulation deadlocked (the cycle of waiting channels is reported)
  130  interrupted (Ctrl-C); a simulation prints the results it has so far
`

// jsonError is one diagnostic as printed under --json, keyed by its
// severity: {"error": {"file", "line", "col", "message", "severity",
// "end_line", "end_col", "expr", "notes"}}, or {"warning": {…}} for a
// warning, so that a reader looking for errors does not take a warning for
// one. "expr" is the expression of a command line's query (eval's EXPR,
// whose file is "<query>"), so that the error of one of several
// expressions says which.
type jsonError struct {
	Error   *jsonDiag `json:"error,omitempty"`
	Warning *jsonDiag `json:"warning,omitempty"`
}

type jsonDiag struct {
	File     string     `json:"file,omitempty"`
	Line     int        `json:"line,omitempty"`
	Col      int        `json:"col,omitempty"`
	Message  string     `json:"message"`
	Severity string     `json:"severity,omitempty"`
	EndLine  int        `json:"end_line,omitempty"`
	EndCol   int        `json:"end_col,omitempty"`
	Expr     string     `json:"expr,omitempty"`
	Notes    []jsonDiag `json:"notes,omitempty"`
}

func diagJSON(pos lang.Pos, msg string) jsonDiag {
	d := jsonDiag{Message: msg}
	if pos.Src != nil {
		d.File = pos.Src.Name
		if d.File == "<query>" {
			d.Expr = pos.Src.Text
		}
	}
	if pos.IsValid() {
		d.Line, d.Col = pos.Line, pos.Col
	}
	return d
}

// writeJSONErrors prints err as JSON lines, one per diagnostic, and returns
// the first error writing them.
func writeJSONErrors(w io.Writer, err error) error {
	enc := results.NewEncoder(w)
	var failed error
	var ds lang.Diagnostics
	ds.Append(unwrapDiagnostics(err))
	for _, d := range ds {
		j := diagJSON(d.Pos, d.Msg)
		if d.End.IsValid() {
			j.EndLine, j.EndCol = d.End.Line, d.End.Col
		}
		j.Severity = d.Severity.String()
		for _, n := range d.Notes {
			j.Notes = append(j.Notes, diagJSON(n.Pos, n.Msg))
		}
		rec := jsonError{Error: &j}
		if d.Severity == lang.Warning {
			rec = jsonError{Warning: &j}
		}
		if err := enc.Encode(rec); err != nil && failed == nil {
			failed = err
		}
	}
	return failed
}

// unwrapDiagnostics finds the diagnostics inside a wrapped error, so that a
// positioned error keeps its position under --json.
func unwrapDiagnostics(err error) error {
	var ds lang.Diagnostics
	if errors.As(err, &ds) {
		return ds
	}
	var d *lang.Diagnostic
	if errors.As(err, &d) {
		return d
	}
	return err
}

// jsonRequested reports whether the command line asks for JSON output
// (before a "--"), so that errors found before or during flag parsing are
// JSON too.
func jsonRequested(args []string) bool {
	for i, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--json" || a == "-json" || a == "--json=true" || a == "-json=true":
			return true
		case a == "--format=json" || a == "-format=json":
			return true
		case (a == "--format" || a == "-format") && i+1 < len(args) && args[i+1] == "json":
			return true
		}
	}
	return false
}

// report prints err (as text on stderr, or as JSON lines on stdout when the
// command line asked for JSON) and returns the exit status.
func report(e *env, args []string, err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	code := exitInput
	var x *exitError
	switch {
	case errors.As(err, &x):
		code = x.code
		if x.msg == "" {
			return code // already printed
		}
		err = errors.New(x.msg)
	case errors.Is(err, context.Canceled):
		// Whatever was computed is printed; "context canceled" would
		// tell the user nothing they did.
		code = exitInterrupted
		err = errors.New("interrupted (Ctrl-C)")
	}
	// An error that --json cannot print on stdout (a closed pipe) goes to
	// stderr instead: it may say what became of an output file (--plot).
	if !jsonRequested(args) || writeJSONErrors(e.stdout, err) != nil {
		fmt.Fprintln(e.stderr, strings.TrimRight(err.Error(), "\n"))
	}
	return code
}
