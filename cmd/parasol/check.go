package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/results"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
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
wormhole switching (the cycle is shown). The exit status is 1 when there is
any error; warnings alone exit 0.`,
	flags: declareCheck,
}

// declareCheck declares check's flags on fs and returns the function that runs it.
func declareCheck(e *env, fs *flag.FlagSet) func(files []string) error {
	maxMemory := memoryFlag()
	fs.Var(&maxMemory, "max-memory", maxMemoryUsage)
	asJSON := fs.Bool("json", false, `print each diagnostic as a JSON line, {"error": {…}} or {"warning": {…}}, and per file {"file", "ok", "machines", "errors", "warnings"}`)
	return func(files []string) error {
		if len(files) == 0 {
			return usageError("parasol check: no files given\nUsage: parasol check FILE...")
		}
		failed := false
		for _, f := range files {
			mem := maxMemory.bytes()
			names, ds := eval.CheckWith(f, func(m *eval.Machine) lang.Diagnostics { return simChecks(m, mem) }, eval.WithMaxMemory(mem))
			errs, warns := ds.Split()
			ok := len(errs) == 0
			failed = failed || !ok
			if *asJSON {
				writeJSONErrors(e.stdout, ds)
				enc := results.NewEncoder(e.stdout)
				if err := enc.Encode(checkSummary{File: eval.DisplayName(f), OK: ok, Machines: len(names), Errors: len(errs), Warnings: len(warns)}); err != nil {
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
				fmt.Fprintf(e.stdout, "%s: ok (%d machine%s)%s\n", eval.DisplayName(f), len(names), plural(len(names)), note)
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
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
}

// checkWork bounds the deadlock check of one topology (processors ×
// lanes, runtime.CheckOptions.MaxWork): about a second. A larger one is
// not checked, and check says so.
const checkWork = 3e7

// simChecks builds every topology of m as `parasol sim` does and reports,
// at the field responsible, what the simulator would reject, and as
// warnings a routing that can deadlock under wormhole switching.
func simChecks(m *eval.Machine, maxMemory int64) lang.Diagnostics {
	var ds lang.Diagnostics
	for _, t := range m.Topologies() {
		at := func(field string, sev lang.Severity, format string, args ...any) *lang.Diagnostic {
			start, end, _ := t.Where(field)
			d := lang.Errorf(start, format, args...).Span(end)
			d.Severity = sev
			ds = append(ds, d)
			return d
		}
		spec, err := m.Spec(t.Label)
		if err != nil {
			at("", lang.Error, "topology %s: %s", t.Label, err)
			continue
		}
		g := spec.Graph
		if g.NumProcs() < 2 {
			continue // nothing to send, nothing to route
		}
		// The network the simulator would build (routing tables or rules,
		// lanes, node and link parameters) and one route through it.
		if _, err := runtime.RouteWithin(spec, "", g.ID(g.Proc(0)), g.ID(g.Proc(1)), maxMemory); err != nil {
			at("routing", lang.Error, "topology %s: %s", t.Label, err)
			continue
		}
		if spec.Switching != runtime.Wormhole {
			continue
		}
		routing := spec.Routing
		if routing == "" {
			routing = "shortest"
		}
		how := "wormhole switching"
		if _, _, set := t.Where("switching"); !set {
			how = "wormhole switching (the default; set switching = … to choose)"
		}
		rc, err := runtime.CheckRoutingWith(context.Background(), spec, "", runtime.CheckOptions{MaxWork: checkWork, MaxMemory: maxMemory})
		switch {
		case err != nil:
			at("routing", lang.Warning, "routing %s of topology %s under %s is not checked for deadlock: %s", routing, t.Label, how, err)
		case !rc.Acyclic:
			at("routing", lang.Warning, "routing %s of topology %s can deadlock under %s: these channels can wait for each other in a cycle: %s", routing, t.Label, how, cycleText(rc.Cycle))
		}
		if err == nil && !rc.Connected {
			at("routing", lang.Warning, "routing %s of topology %s gives no route to %d ordered pair%s of processors", routing, t.Label, rc.PairsWithoutRoute, plural(rc.PairsWithoutRoute))
		}
	}
	return ds
}

// maxCycleShown is how many channels of a cycle a warning lists.
const maxCycleShown = 16

// cycleText prints a cycle of channels as route --check does, the first
// channel again at the end; a long one is cut in the middle.
func cycleText(cycle []runtime.Channel) string {
	var parts []string
	for i, c := range cycle {
		if len(cycle) > maxCycleShown && i >= maxCycleShown/2 && i < len(cycle)-maxCycleShown/2 {
			if i == maxCycleShown/2 {
				parts = append(parts, fmt.Sprintf("… %d more …", len(cycle)-maxCycleShown))
			}
			continue
		}
		parts = append(parts, channelName(c))
	}
	if len(cycle) > 0 {
		parts = append(parts, channelName(cycle[0]))
	}
	return strings.Join(parts, " → ")
}
