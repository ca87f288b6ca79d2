// Package results is the result schema: the JSON objects and CSV columns
// every command prints a result in, the "run" object that says what
// produced a result, the records of a sweep's points and of a shard of a
// simulation's runs, the Study a sweep shard's output starts with (the
// identity merge compares), and the readers that take a sweep's output
// back for merging. The schema is defined here once: the command line writes these
// types and study.Merge reads them back, so a key or a column cannot
// drift between the writer and the reader.
//
// Numbers are written without binary noise: a float keeps Digits
// significant digits (Round), in encoding/json's notation (FormatFloat),
// and Encoder rewrites every non-integer number of a JSON value that way.
package results

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// Run says what produced a result, as its "run" object: enough to run it
// again. Size is in bytes; Sets are the --set overrides as PATH=VALUE.
//
// A seed of 2^53 or more is also written as a string, "seed_str" after
// "seed": JSON tools that read numbers as doubles (jq, JavaScript) round
// such a seed, and the rounded seed reproduces a different run. Passing
// "seed_str" to --seed reproduces the result.
type Run struct {
	Command  string  `json:"command"`
	Machine  string  `json:"machine"`
	Source   string  `json:"source"`
	Topology string  `json:"topology,omitempty"`
	Op       string  `json:"op,omitempty"`
	Size     *int    `json:"size,omitempty"`
	Seed     *uint64 `json:"seed,omitempty"`
	// SeedStr is Seed in decimal when Seed is 2^53 or more; MarshalJSON
	// sets it, whatever it holds.
	SeedStr   string   `json:"seed_str,omitempty"`
	Runs      int      `json:"runs,omitempty"`
	Routing   string   `json:"routing,omitempty"`
	Switching string   `json:"switching,omitempty"`
	Sets      []string `json:"sets"`
	Version   string   `json:"version"`
}

// MaxExactSeed is the largest seed every JSON reader reads exactly: a
// double holds every integer up to 2^53.
const MaxExactSeed = 1<<53 - 1

// MarshalJSON writes r with "seed_str" when its seed exceeds MaxExactSeed.
func (r Run) MarshalJSON() ([]byte, error) {
	type plain Run // without this method
	r.SeedStr = ""
	if r.Seed != nil && *r.Seed > MaxExactSeed {
		r.SeedStr = strconv.FormatUint(*r.Seed, 10)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as Encoder: a --set expression keeps its < > &
	if err := enc.Encode(plain(r)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Encoder writes one JSON value a line, with <, > and & kept as they are
// (expressions contain them) and every float through FormatFloat.
type Encoder struct{ w io.Writer }

// NewEncoder returns an Encoder writing to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w} }

// Encode writes v and a newline.
func (j *Encoder) Encode(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := j.w.Write(CleanNumbers(buf.Bytes()))
	return err
}

// Digits is how many significant digits a printed float keeps: enough
// for any figure Parasol computes, few enough that the last bits of binary
// rounding (1.9699999999999998e-06) are gone.
const Digits = 12

// Round rounds f to Digits significant digits.
func Round(f float64) float64 {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', Digits, 64), 64)
	return r
}

// Number is f as a JSON value: rounded (9.400000000000001e-7 → 9.4e-7),
// and an infinity or NaN as its text, since JSON has no such numbers.
func Number(f float64) any {
	if f > 1e308 || f < -1e308 || f != f {
		return lang.FormatNumber(f)
	}
	return Round(f)
}

// FormatFloat prints f rounded, in encoding/json's notation (plain
// decimals from 1e-6 to 1e21, exponents without a leading zero outside),
// so that a figure without noise prints as it always has.
func FormatFloat(f float64) string {
	f = Round(f)
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

// CleanNumbers rewrites every non-integer number of encoded JSON through
// FormatFloat. Doing it on the bytes covers every result, those of other
// packages marshalled whole included; integers are left alone (an event
// count may exceed a float's precision).
func CleanNumbers(b []byte) []byte {
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
				out = append(out, FormatFloat(f)...)
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

// WriteTable writes a header and rows as CSV.
func WriteTable(w io.Writer, header []string, rows [][]string) error {
	return WriteRows(w, append([][]string{header}, rows...))
}

// WriteRows writes rows without a header, for the rows after the first.
func WriteRows(w io.Writer, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return cw.Error()
}

// WriteNotes writes the notes the text output prints beside a result
// after its CSV table, one comment line each, "# note: TEXT", and nothing
// when there are none (a table without notes is unchanged). A CSV reader
// skips them as comments (Go's csv.Reader with Comment = '#', pandas'
// read_csv with comment='#'); a reader that does not finds them at the end.
func WriteNotes(w io.Writer, notes []string) error {
	for _, n := range notes {
		if _, err := io.WriteString(w, "# note: "+strings.ReplaceAll(n, "\n", " ")+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// Float is a float as a CSV cell: as in JSON, but infinities print as
// inf and -inf.
func Float(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	return FormatFloat(f)
}
