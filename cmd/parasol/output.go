package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/eval"
)

// The output layer: every command that prints results picks text, JSON or
// CSV with --format (--json is short for --format json), every JSON object
// goes through jsonEncoder, which prints floats without binary noise, and
// every result says what produced it (runInfo).

const (
	outText = "text"
	outJSON = "json"
	outCSV  = "csv"
)

// registerFormat adds --format text|json|csv and its short form --json,
// whose help is jsonUsage.
func registerFormat(fs *flag.FlagSet, jsonUsage string) *choiceFlag {
	f := newChoiceFlag(outText, outText, outJSON, outCSV)
	fs.Var(f, "format", "output `FORMAT`: text, json or csv")
	fs.Var(jsonAlias{f}, "json", jsonUsage+" (short for --format json)")
	return f
}

// jsonAlias is --json, a boolean flag that stands for --format json.
type jsonAlias struct{ f *choiceFlag }

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
	switch {
	case on:
		j.f.value = outJSON
	case j.f.value == outJSON:
		j.f.value = outText
	}
	return nil
}

// jsonEncoder writes one JSON value a line, with <, > and & kept as they
// are (expressions contain them) and every float through cleanNumber.
type jsonEncoder struct{ w io.Writer }

func newJSON(w io.Writer) *jsonEncoder { return &jsonEncoder{w} }

func (j *jsonEncoder) Encode(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := j.w.Write(cleanJSONNumbers(buf.Bytes()))
	return err
}

// significantDigits is how many digits a printed float keeps: enough for
// any figure Parasol computes, few enough that the last bits of binary
// rounding (1.9699999999999998e-06) are gone.
const significantDigits = 12

// roundFloat rounds f to significantDigits significant digits.
func roundFloat(f float64) float64 {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', significantDigits, 64), 64)
	return r
}

// formatFloat prints f rounded, in encoding/json's notation (plain
// decimals from 1e-6 to 1e21, exponents without a leading zero outside),
// so that a figure without noise prints as it always has.
func formatFloat(f float64) string {
	f = roundFloat(f)
	abs := math.Abs(f)
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		if n := len(s); n >= 4 && s[n-4] == 'e' && s[n-3] == '-' && s[n-2] == '0' {
			s = s[:n-2] + s[n-1:] // e-07 → e-7, as encoding/json
		}
		return s
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// cleanJSONNumbers rewrites every non-integer number of encoded JSON
// through formatFloat. Doing it on the bytes covers every result, those
// of other packages marshalled whole included; integers are left alone
// (an event count may exceed a float's precision).
func cleanJSONNumbers(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(b))
			out = append(out, b[i:j]...)
			i = j
		case c == '-' || c >= '0' && c <= '9':
			j, isFloat := i, false
			for j < len(b) && strings.IndexByte("0123456789+-.eE", b[j]) >= 0 {
				isFloat = isFloat || b[j] == '.' || b[j] == 'e' || b[j] == 'E'
				j++
			}
			tok := b[i:j]
			if f, err := strconv.ParseFloat(string(tok), 64); isFloat && err == nil {
				out = append(out, formatFloat(f)...)
			} else {
				out = append(out, tok...)
			}
			i = j
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

// runInfo says what produced a result, as its "run" object: enough to
// run it again.
type runInfo struct {
	Command   string   `json:"command"`
	Machine   string   `json:"machine"`
	Source    string   `json:"source"`
	Topology  string   `json:"topology,omitempty"`
	Op        string   `json:"op,omitempty"`
	Size      *int     `json:"size,omitempty"` // bytes
	Seed      *uint64  `json:"seed,omitempty"`
	Runs      int      `json:"runs,omitempty"`
	Routing   string   `json:"routing,omitempty"`
	Switching string   `json:"switching,omitempty"`
	Sets      []string `json:"sets"`
	Version   string   `json:"version"`
}

// newRunInfo is the part of runInfo every command shares: the machine,
// where it came from, the --set overrides and the version.
func newRunInfo(cmd, source string, m *eval.Machine, mf *machineFlags) *runInfo {
	r := &runInfo{Command: cmd, Source: source, Sets: []string{}, Version: version}
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

// csvTable writes a header and rows as CSV.
func csvTable(w io.Writer, header []string, rows [][]string) error {
	return csvRows(w, append([][]string{header}, rows...))
}

// csvRows writes rows without a header, for the rows after the first.
func csvRows(w io.Writer, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return cw.Error()
}

// csvFloat is a float as a CSV cell: as in JSON, but infinities print as
// inf and -inf.
func csvFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	return formatFloat(f)
}
