package main

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/stdlib"
)

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
	// BisectionExact is set when the value rests on the bisection width:
	// false when that is an upper bound (see withUses).
	BisectionExact *bool  `json:"bisection_exact,omitempty"`
	Note           string `json:"note,omitempty"`
	// Notes are the notes the text prints beside the value (Note), as
	// every result's JSON lists them; absent when there are none.
	Notes []string `json:"notes,omitempty"`
	// Run says what produced the value (see newRunInfo).
	Run *results.Run `json:"run,omitempty"`
}

func toJSON(expr string, v lang.Value) jsonValue {
	switch v.Kind {
	case lang.Bool:
		return jsonValue{Expr: expr, Value: v.Truth()}
	case lang.String:
		return jsonValue{Expr: expr, Value: v.Text()}
	}
	return jsonValue{Expr: expr, Value: results.Number(v.Num), Unit: v.Dim.Unit()}
}

// evalCmd is parasol eval.
var evalCmd = &command{
	name:    "eval",
	summary: "evaluate expressions: parameters, primitive costs, derived indexes",
	args:    "[flags] MACHINE EXPR...",
	doc: `
Eval evaluates each expression against the machine and prints its value
with its unit. An expression is any reference or arithmetic over them:
  processor(1).createjob          a field
  topology(100).link(0).linkspeed a link's field
  PVM.send(1KB, 0, 5)             a model primitive's cost
  diameter, avgdist, bisection, nodes, links, maxtotalspeed   derived indexes
  processor(1).compcomm           computation/communication ratio (operations per byte)
With several expressions each line reads EXPR = VALUE.

--format json prints one JSON object per expression, with "run" saying
which machine and --set produced it; --format csv prints a header row and
one row per expression: expr, value (SI base units), unit.`,
	flags: declareEval,
}

// declareEval declares eval's flags on fs and returns the function that runs it.
func declareEval(e *env, fs *flag.FlagSet) func(pos []string) error {
	var mf machineFlags
	mf.register(fs, e)
	format := registerFormat(fs, "print one JSON object per expression: {\"expr\", \"value\" (SI base units), \"unit\", \"run\"}")
	return func(pos []string) error {
		if len(pos) < 2 {
			return argsError("parasol eval: need a MACHINE and at least one EXPR")
		}
		m, err := mf.load(pos[0])
		if err != nil {
			return err
		}
		enc := results.NewEncoder(e.stdout)
		run := newRunInfo("eval", pos[0], m, &mf)
		var rows [][]string
		var notes []string // CSV's, each naming its expression
		var errs lang.Diagnostics
		for _, x := range pos[1:] {
			v, err := m.Eval(x)
			if err != nil {
				errs.Append(err)
				continue
			}
			uses, err := m.Uses(x)
			if err != nil {
				errs.Append(err)
				continue
			}
			switch {
			case format.value == outJSON:
				j := withUses(toJSON(x, v), uses)
				j.Run = run
				if err := enc.Encode(j); err != nil {
					return err
				}
			case format.value == outCSV:
				rows = append(rows, csvValue(x, v))
				for _, n := range withUses(jsonValue{}, uses).Notes {
					notes = append(notes, x+": "+n)
				}
			case len(pos) == 2:
				fmt.Fprintln(e.stdout, valueText(x, v, uses))
			default:
				fmt.Fprintln(e.stdout, exprLine(x, valueText(x, v, uses)))
			}
		}
		if format.value == outCSV {
			if err := results.WriteTable(e.stdout, []string{"expr", "value", "unit"}, rows); err != nil {
				return err
			}
			if err := results.WriteNotes(e.stdout, notes); err != nil {
				return err
			}
		}
		if len(errs) > 0 {
			return errs
		}
		return nil
	}
}

// csvValue is an evaluated expression as an eval --format csv row.
func csvValue(expr string, v lang.Value) []string {
	switch v.Kind {
	case lang.Bool:
		return []string{expr, strconv.FormatBool(v.Truth()), ""}
	case lang.String:
		return []string{expr, v.Text(), ""}
	}
	return []string{expr, results.Float(v.Num), v.Dim.Unit()}
}

// importCmd is parasol import.
var importCmd = &command{
	name:    "import",
	summary: "print a Parasol I file in the modern syntax",
	args:    "LEGACY",
	doc: `
Import reads a file in the Parasol I on-disk format and prints it in the
modern syntax: implied units become explicit (times in ns, link speeds in
B/s, delays in %), comments are kept, and every field keeps its value.`,
	flags: noFlags(runImport),
}

func runImport(e *env, pos []string) error {
	if len(pos) != 1 {
		return argsError("parasol import: need exactly one file")
	}
	if name, ok := strings.CutPrefix(pos[0], "std:"); ok {
		// A standard machine is not a file, and is modern already.
		if _, ok := stdlib.Machine(name); !ok {
			_, err := eval.MachineNames(pos[0])
			return err
		}
		return fmt.Errorf("%s is a standard machine, already in the modern syntax: nothing to import; give it as std:%s to any command (parasol eval std:%s nodes), or write import \"std:%s\" in a machine file", pos[0], name, name, name)
	}
	data, err := eval.ReadInput(pos[0], 0)
	if err != nil {
		return err
	}
	f, err := parser.ParseFile(pos[0], string(data))
	if err != nil {
		if !parser.IsLegacy(string(data)) && !modernMachine().Match(data) {
			// Neither syntax: say so once, echoing none of the file.
			return fmt.Errorf("%s:1:1: not a Parasol I file: it has no machinename = \"NAME\" header line, nor is it a modern machine file; import converts Parasol I files", pos[0])
		}
		return err
	}
	if !f.Legacy {
		return fmt.Errorf("%s is already in the modern syntax (no machinename = … header)", pos[0])
	}
	// A file that check rejects is not converted: its values have no
	// meaning to keep.
	if _, err := eval.CheckSource(pos[0], string(data)); err != nil {
		return err
	}
	out, err := formatChecked(eval.Modernize(f))
	if err != nil {
		return err
	}
	fmt.Fprint(e.stdout, out)
	return nil
}

// modernMachine is the start of a modern machine block, as
// parser.IsLegacy recognises it: a line starting with machine and a name.
var modernMachine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^[ \t]*machine[ \t]+["\p{L}_]`) })

// headline is the first sentence of a machine's comment (the lines of
// eval.MachineDoc.Doc), to its first ':', '(' or '. ' and at most
// maxHeadline runes (cut at a word, marked "…"): "XMOS XK-XMP-64", "Intel
// iPSC/1 hypercube". The comment ends at its first empty line.
func headline(comment string) string {
	var b strings.Builder
	for _, line := range strings.Split(comment, "\n") {
		if strings.TrimSpace(line) == "" {
			break
		}
		b.WriteString(strings.TrimSpace(line) + " ")
	}
	s := b.String()
	if i := indexOutsideCode(s, ":("); i >= 0 {
		s = s[:i]
	}
	if m := sentenceEnd().FindStringIndex(s); m != nil {
		s = s[:m[0]+2] // the end of a word of two letters or more, not an initial (L. Clarke)
	}
	s = strings.TrimRight(strings.TrimSpace(s), ",;")
	if r := []rune(s); len(r) > maxHeadline {
		s = string(r[:maxHeadline])
		if i := strings.LastIndex(s, ", "); i > 0 {
			return s[:i] // a whole clause
		}
		if i := strings.LastIndexByte(s, ' '); i > 0 {
			s = s[:i]
		}
		s = strings.TrimRight(s, ",;") + "…"
	}
	return s
}

// indexOutsideCode is strings.IndexAny(s, chars) for the characters that
// stand outside the `code spans` of s, so that a headline is not cut at
// the ':' of `parasol check std:models`.
func indexOutsideCode(s, chars string) int {
	code := false
	for i, r := range s {
		switch {
		case r == '`':
			code = !code
		case !code && strings.ContainsRune(chars, r):
			return i
		}
	}
	return -1
}

// sentenceEnd is where a sentence ends: a word of two letters or more and
// ". ".
var sentenceEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\p{Ll}\d]{2}\. `) })

// maxHeadline is the longest description parasol machines prints.
const maxHeadline = 60

// machinesCmd is parasol machines.
var machinesCmd = &command{
	name:    "machines",
	summary: "list the standard machines, or the machines in a file",
	args:    "[MACHINE]",
	doc: `
Machines lists the standard machines (usable as std:NAME), each followed by
the first words of its description, or, given a file, the machines it
defines (select one with --machine NAME), each followed by the first words
of the comment directly above it (a comment that starts a file of several
machines is the file's, not its first machine's). The name is the first
word of its line, quoted when it holds a space.`,
	flags: noFlags(runMachines),
}

func runMachines(e *env, pos []string) error {
	if len(pos) == 0 {
		width := 0
		for _, n := range stdlib.MachineNames() {
			width = max(width, len("std:"+n))
		}
		for _, n := range stdlib.MachineNames() {
			names, err := eval.MachineNames("std:" + n)
			if err == nil && len(names) == 0 {
				fmt.Fprintf(e.stdout, "std:%s (a library of definitions: import \"std:%s\")\n", n, n)
				continue
			}
			// A standard file is one machine; its comment may stand above
			// its imports rather than directly above it.
			text, _ := stdlib.Machine(n)
			printMachine(e, width, "std:"+n, headline(fileComment(text)))
		}
		return nil
	}
	docs, err := eval.MachineDocs(pos[0])
	if err != nil {
		return err
	}
	width := 0
	names := make([]string, len(docs))
	for i, d := range docs {
		names[i] = d.Name
		if strings.ContainsAny(d.Name, " \t\"") || d.Name == "" {
			names[i] = strconv.Quote(d.Name) // the name stays the line's first word
		}
		width = max(width, len(names[i]))
	}
	for i, d := range docs {
		printMachine(e, width, names[i], headline(d.Doc))
	}
	return nil
}

// printMachine prints a line of parasol machines: the name, then its
// description in a column width wide, if it has one.
func printMachine(e *env, width int, name, description string) {
	if description == "" {
		fmt.Fprintln(e.stdout, name)
		return
	}
	fmt.Fprintf(e.stdout, "%-*s  %s\n", width, name, description)
}

// fileComment is the comment a file starts with, its lines without their
// "#" markers.
func fileComment(text string) string {
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		c, ok := strings.CutPrefix(strings.TrimSpace(line), "#")
		if !ok {
			break
		}
		lines = append(lines, strings.TrimSpace(c))
	}
	return strings.Join(lines, "\n")
}
