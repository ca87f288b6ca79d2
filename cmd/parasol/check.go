package main

import (
	"flag"
	"fmt"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/results"
)

// checkCmd is parasol check.
var checkCmd = &command{
	name:    "check",
	summary: "report every error in machine files",
	args:    "FILE...",
	doc: `
Check reads each machine file (modern syntax or Parasol I) and reports every
error it finds as file:line:col with the source line and a caret. Every
machine in a file is checked, and every topology is built as the simulator
builds it, with its switching and routing: what 'parasol sim' would reject
is an error here. Values that are legal but suspicious are warnings
(file:line:col: warning: …): a num_links that disagrees with the links
given, a routing whose channels can wait for each other in a cycle under
wormhole switching, or store and forward or virtual cut-through with a
buffer (the cycle is shown), and so each routing a program's sends name
(send(…, routing: NAME)) on the topology the program runs on, at the first
send that names it. The exit status is 1 when there is any error;
warnings alone exit 0.

Programs are checked as run checks them: their statements, arguments,
names and units, on every machine of the file, or when it defines none on
every machine of the files it imports. A file of programs that names no
machine at all has them checked alone: what needs a machine (its names,
its processors' timings, the rank count, and so matching sends to receives
and the static deadlock check) is left for run, and a name the program
does not define but is close to one it does is a warning. The summary
counts machines and programs: ok (1 machine, 2 programs).`,
	flags: declareCheck,
}

// declareCheck declares check's flags on fs and returns the function that runs it.
func declareCheck(e *env, fs *flag.FlagSet) func(files []string) error {
	maxMemory := memoryFlag()
	fs.Var(&maxMemory, "max-memory", maxMemoryUsage)
	topology := fs.String("topology", "", topologyUsage+"; a machine without it is an error at its declaration")
	asJSON := fs.Bool("json", false, `print each diagnostic as a JSON line, {"error": {…}} or {"warning": {…}}, and per file {"file", "ok", "machines", "programs", "errors", "warnings"}`)
	return func(files []string) error {
		if len(files) == 0 {
			return argsError("parasol check: no files given")
		}
		failed := false
		for _, f := range files {
			in, ds := eval.InspectFile(f, eval.WithMaxMemory(maxMemory.bytes()), eval.WithTopology(*topology))
			names, progs := in.Machines, in.Programs
			errs, warns := ds.Split()
			ok := len(errs) == 0
			failed = failed || !ok
			if *asJSON {
				writeJSONErrors(e.stdout, ds)
				enc := results.NewEncoder(e.stdout)
				if err := enc.Encode(checkSummary{File: eval.DisplayName(f), OK: ok, Machines: len(names), Programs: len(progs), Errors: len(errs), Warnings: len(warns)}); err != nil {
					return err
				}
				continue
			}
			if len(ds) > 0 {
				fmt.Fprintln(e.stderr, ds.Error())
			}
			if ok {
				note := ""
				if len(warns) > 0 {
					note = fmt.Sprintf(", %d warning%s", len(warns), plural(len(warns)))
				}
				counts := fmt.Sprintf("%d machine%s", len(names), plural(len(names)))
				if len(progs) > 0 {
					counts += fmt.Sprintf(", %d program%s", len(progs), plural(len(progs)))
				}
				fmt.Fprintf(e.stdout, "%s: ok (%s)%s\n", eval.DisplayName(f), counts, note)
			}
		}
		if failed {
			return &exitError{code: exitInput}
		}
		return nil
	}
}

type checkSummary struct {
	File     string `json:"file"`
	OK       bool   `json:"ok"`
	Machines int    `json:"machines"`
	Programs int    `json:"programs"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
}
