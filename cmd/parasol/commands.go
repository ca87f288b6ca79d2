package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/stdlib"
)

func runCheck(e *env, args []string) error {
	fs := newFlags(e, "check", "FILE...", `
Check reads each machine file (modern syntax or Parasol I) and reports every
error it finds as file:line:col with the source line and a caret. Every
machine in a file is checked. The exit status is 1 when there is any error.`)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError("parasol check: no files given\nUsage: parasol check FILE...")
	}
	failed := false
	for _, f := range files {
		names, err := eval.MachineNames(f)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			failed = true
			continue
		}
		seen := map[string]bool{}
		for _, n := range names {
			if _, err := eval.Load(f, eval.WithMachine(n)); err != nil {
				// Shared definitions can fail the same way in every machine.
				if msg := err.Error(); !seen[msg] {
					seen[msg] = true
					fmt.Fprintln(e.stderr, msg)
				}
			}
		}
		if len(seen) > 0 {
			failed = true
			continue
		}
		fmt.Fprintf(e.stdout, "%s: ok (%d machine%s)\n", f, len(names), plural(len(names)))
	}
	if failed {
		return &exitError{code: 1}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// jsonValue is one evaluated expression as --json prints it.
type jsonValue struct {
	Expr  string `json:"expr"`
	Value any    `json:"value"`
	Unit  string `json:"unit"`
}

func toJSON(expr string, v lang.Value) jsonValue {
	switch v.Kind {
	case lang.Bool:
		return jsonValue{expr, v.Truth(), ""}
	case lang.String:
		return jsonValue{expr, v.Text(), ""}
	}
	return jsonValue{expr, jsonNumber(v.Num), v.Dim.Unit()}
}

// newJSON is an encoder that keeps <, > and & as they are (expressions
// contain them).
func newJSON(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// jsonNumber rounds away binary noise (9.400000000000001e-7 → 9.4e-7)
// and keeps infinities printable (JSON has no inf).
func jsonNumber(f float64) any {
	if f > 1e308 || f < -1e308 || f != f {
		return lang.FormatNumber(f)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
	return r
}

func runEval(e *env, args []string) error {
	fs := newFlags(e, "eval", "[flags] MACHINE EXPR...", `
Eval evaluates each expression against the machine and prints its value
with its unit. An expression is any reference or arithmetic over them:
  processor(1).createjob          a field
  topology(100).link(0).linkspeed a link's field
  PVM.send(1KB, 0, 5)             a model primitive's cost
  diameter, avgdist, bisection, nodes, links, maxtotalspeed   derived indexes
  processor(1).compcomm           computation/communication ratio (operations per byte)
With several expressions each line reads EXPR = VALUE.`)
	var mf machineFlags
	mf.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object per expression: {\"expr\", \"value\" (SI base units), \"unit\"}")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usageError("parasol eval: need a MACHINE and at least one EXPR\nUsage: parasol eval [flags] MACHINE EXPR...")
	}
	m, err := mf.load(pos[0])
	if err != nil {
		return err
	}
	enc := newJSON(e.stdout)
	var errs lang.Diagnostics
	for _, x := range pos[1:] {
		v, err := m.Eval(x)
		if err != nil {
			errs.Append(err)
			continue
		}
		switch {
		case *asJSON:
			if err := enc.Encode(toJSON(x, v)); err != nil {
				return err
			}
		case len(pos) == 2:
			fmt.Fprintln(e.stdout, v)
		default:
			fmt.Fprintf(e.stdout, "%s = %s\n", x, v)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func runImport(e *env, args []string) error {
	fs := newFlags(e, "import", "LEGACY", `
Import reads a file in the Parasol I on-disk format and prints it in the
modern syntax: implied units become explicit (times in ns, link speeds in
B/s, delays in %), comments are kept, and every field keeps its value.`)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("parasol import: need exactly one file\nUsage: parasol import LEGACY")
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	f, err := parser.ParseFile(pos[0], string(data))
	if err != nil {
		return err
	}
	if !f.Legacy {
		return fmt.Errorf("%s is already in the modern syntax (no machinename = … header)", pos[0])
	}
	fmt.Fprint(e.stdout, lang.Format(eval.Modernize(f)))
	return nil
}

func runFmt(e *env, args []string) error {
	fs := newFlags(e, "fmt", "[-w] FILE...", `
Fmt prints machine files in canonical form: one statement per line, tab
indentation, single spaces around operators, comments kept. Formatting a
formatted file changes nothing. Parasol I files are converted with
'parasol import' instead.`)
	write := fs.Bool("w", false, "write the result back to the file instead of printing it")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError("parasol fmt: no files given\nUsage: parasol fmt [-w] FILE...")
	}
	var errs lang.Diagnostics
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			errs.Append(err)
			continue
		}
		f, err := parser.ParseFile(path, string(data))
		if err != nil {
			errs.Append(err)
			continue
		}
		if f.Legacy {
			errs.Append(fmt.Errorf("%s is in the Parasol I format; convert it with: parasol import %s", path, path))
			continue
		}
		out := lang.Format(f)
		if *write {
			if out != string(data) {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					errs.Append(err)
				}
			}
			continue
		}
		fmt.Fprint(e.stdout, out)
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func runMachines(e *env, args []string) error {
	fs := newFlags(e, "machines", "[MACHINE]", `
Machines lists the standard machines (usable as std:NAME), or, given a file,
the machines it defines (select one with --machine NAME).`)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		for _, n := range stdlib.MachineNames() {
			names, err := eval.MachineNames("std:" + n)
			if err == nil && len(names) == 0 {
				fmt.Fprintf(e.stdout, "std:%s (a library of definitions: import \"std:%s\")\n", n, n)
				continue
			}
			fmt.Fprintf(e.stdout, "std:%s\n", n)
		}
		return nil
	}
	names, err := eval.MachineNames(pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, strings.Join(names, "\n"))
	return nil
}
