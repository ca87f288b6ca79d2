package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/results"
)

// The output layer: every command that prints results picks text, JSON or
// CSV with --format (--json is short for --format json), every JSON object
// goes through results.Encoder, which prints floats without binary noise, and
// every result says what produced it (newRunInfo).

const (
	outText = "text"
	outJSON = "json"
	outCSV  = "csv"
)

// registerFormat adds --format text|json|csv and its short form --json,
// whose help is jsonUsage. --json beside a --format other than json is a
// usage error: neither silently wins.
func registerFormat(fs *flag.FlagSet, jsonUsage string) *choiceFlag {
	f := newChoiceFlag(outText, outText, outJSON, outCSV)
	given := &formatGiven{}
	fs.Var(formatFlag{f, given}, "format", "output `FORMAT`: text, json or csv")
	fs.Var(jsonAlias{f, given}, "json", jsonUsage+" (short for --format json)")
	return f
}

// formatGiven is which of --format and --json the command line gave:
// format is --format's value, "" until given; json is whether --json was.
type formatGiven struct {
	format string
	json   bool
}

// conflict is the error of --json beside a --format other than json.
func (g *formatGiven) conflict() error {
	if g.json && g.format != "" && g.format != outJSON {
		return fmt.Errorf("--json is short for --format json and contradicts --format %s: give one of them", g.format)
	}
	return nil
}

// formatFlag is --format, remembering that it was given.
type formatFlag struct {
	*choiceFlag
	given *formatGiven
}

func (f formatFlag) Set(s string) error {
	if err := f.choiceFlag.Set(s); err != nil {
		return err
	}
	f.given.format = s
	return f.given.conflict()
}

// jsonAlias is --json, a boolean flag that stands for --format json.
type jsonAlias struct {
	f     *choiceFlag
	given *formatGiven
}

func (j jsonAlias) IsBoolFlag() bool { return true }

func (j jsonAlias) String() string {
	if j.f != nil && j.f.value == outJSON {
		return "true"
	}
	return "false"
}

func (j jsonAlias) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	j.given.json = on
	if err := j.given.conflict(); err != nil {
		return err
	}
	switch {
	case on:
		j.f.value = outJSON
	case j.f.value == outJSON:
		j.f.value = outText
	}
	return nil
}

// newRunInfo is the part of a result's "run" object every command shares: the machine,
// where it came from, its --topology, the --set overrides and the version.
func newRunInfo(cmd, source string, m *eval.Machine, mf *machineFlags) *results.Run {
	r := &results.Run{Command: cmd, Source: source, Topology: mf.topology, Sets: []string{}, Version: version()}
	if m != nil {
		r.Machine = m.Name()
	}
	if e := mf.env; source == sessionMachine && e != nil {
		r.Source = e.sessionSource
		if r.Source == "" {
			r.Source = "(repl)" // a machine defined in the session itself
		}
	}
	for _, s := range mf.sets {
		r.Sets = append(r.Sets, s.Path+"="+s.Value)
	}
	return r
}
