package results

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/runtime"
)

// Key starts every point of a sweep's JSON: the point's index, which
// merge orders by, and the sweep's point count, for merge to find missing
// shards. The same two are a point's first CSV columns and the "point
// I/N:" of its text line.
type Key struct {
	Point  int `json:"point"`
	Points int `json:"points"`
}

// SweepSim is a simulated point: Key, runtime.Result's keys, then "run"
// with the point's parameters.
type SweepSim struct {
	Key
	*runtime.Result
	Run *Run `json:"run"`
}

// SweepCompare is a compared point: Key, then compare's object (with its
// "run").
type SweepCompare struct {
	Key
	Compare
}

// SweepLoad is an open-loop point: Key, then sim --load's object (Load).
type SweepLoad struct {
	Key
	*runtime.LoadResult
	Unmeasured
	Run *Run `json:"run"`
}

// SweepProgram is a program's point: Key, then run's object.
type SweepProgram struct {
	Key
	ProgramRun
}

// SweepHeader names the columns of a point's parameters, given the
// columns of the sweep's --set and --arg axes: the point's index, the
// sweep's count, then the message size, routing, switching and seed.
// The figures' columns follow (SimHeader, CompareHeader, LoadHeader or
// ProgramPointHeader).
func SweepHeader(axes []string) []string {
	return append([]string{"point", "points", "size", "routing", "switching", "seed"}, axes...)
}

// csvStart is how a sweep's CSV output begins: SweepHeader's first two.
const csvStart = "point,points,"

// SweepParams is a point's row under SweepHeader; size is "" for a
// program's point, which has no message size.
func SweepParams(k Key, size, routing, switching string, seed uint64, values []string) []string {
	return append([]string{strconv.Itoa(k.Point), strconv.Itoa(k.Points), size, routing, switching, strconv.FormatUint(seed, 10)}, values...)
}

// SweepText is how a point's text line begins: "point I/N: ".
func SweepText(k Key) string { return fmt.Sprintf("point %d/%d: ", k.Point, k.Points) }

// RunShard is what `sim --runs R --shard I/N` prints: the raw figures of
// its runs and what merge needs to print the whole result exactly as one
// `sim --runs R` would. Its floats are Go's shortest exact form (it is
// written with encoding/json, not Encoder), so that the aggregate is bit
// for bit the same.
type RunShard struct {
	Kind    string              `json:"parasol_shard"` // RunShardKind
	Format  string              `json:"format"`        // the format the whole result is printed in
	Shard   int                 `json:"shard"`
	Shards  int                 `json:"shards"`
	Runs    int                 `json:"runs"`
	Op      string              `json:"op"`
	Run     *Run                `json:"run"`
	Records []runtime.RunRecord `json:"records"`
}

// RunShardKind is RunShard's "parasol_shard".
const RunShardKind = "sim --runs"

// IsRunShard reports whether data is a RunShard.
func IsRunShard(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimSpace(data), []byte(`{"parasol_shard":`))
}

// ReadRunShard reads a RunShard, refusing unknown keys; the caller checks
// its Kind.
func ReadRunShard(data []byte) (RunShard, error) {
	var d RunShard
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&d)
	return d, err
}

// Format is the format of a sweep's output as read back.
type Format string

// The formats a sweep's output is read back in; None is output without
// a point.
const (
	None Format = ""
	JSON Format = "JSON"
	CSV  Format = "CSV"
	Text Format = "text"
)

// FormatOf is the format a sweep's output data is in; a shard's study
// line (Study.Line) is passed over.
func FormatOf(data []byte) Format {
	data = skipStudyLine(data)
	switch {
	case len(data) == 0:
		return None
	case bytes.HasPrefix(data, []byte(csvStart)):
		return CSV
	case data[0] == '{':
		return JSON
	}
	return Text
}

// skipStudyLine is data without its first line when that is a study
// line.
func skipStudyLine(data []byte) []byte {
	if !isStudyLine(data) {
		return data
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[i+1:]
	}
	return nil
}

// Line is one point of a sweep's output as read back: its Key and its
// bytes as printed; Where is file:line, for messages.
type Line struct {
	Key
	Text  []byte
	Where string
}

// ReadSweep splits the output a sweep (or a shard of one) printed into
// its points, telling JSON lines, CSV and text apart by the first line.
// header is the CSV header row, "" for the other formats. A shard's study
// lines are passed over (ReadStudy reads them).
func ReadSweep(name string, data []byte) (lines []Line, header string, err error) {
	if len(data) == 0 {
		return nil, "", nil
	}
	if FormatOf(data) == CSV {
		return readCSV(name, data)
	}
	var out []Line
	for n, rest := 1, data; len(rest) > 0; n++ {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		where := fmt.Sprintf("%s:%d", name, n)
		if line[len(line)-1] != '\n' {
			return nil, "", fmt.Errorf("%s: the last line is cut short: the shard did not finish", where)
		}
		l := Line{Text: line, Where: where}
		switch {
		case isStudyLine(line):
			continue
		case bytes.HasPrefix(line, []byte("{")):
			// Key's fields as pointers, to tell a missing key from 0.
			var key struct {
				Point  *int `json:"point"`
				Points *int `json:"points"`
			}
			if err := json.Unmarshal(line, &key); err != nil || key.Point == nil || key.Points == nil {
				return nil, "", fmt.Errorf("%s: not a point of a sweep's JSON output (no \"point\" and \"points\")", where)
			}
			l.Point, l.Points = *key.Point, *key.Points
		default:
			if _, err := fmt.Sscanf(string(line), "point %d/%d:", &l.Point, &l.Points); err != nil {
				return nil, "", fmt.Errorf("%s: not a point of a sweep's output: %.40q", where, line)
			}
		}
		out = append(out, l)
	}
	return out, "", nil
}

// readCSV reads a sweep's CSV; each row is written back by WriteRows, so
// the bytes are the sweep's.
func readCSV(name string, data []byte) ([]Line, string, error) {
	skipped := 0 // the study line's
	if rest := skipStudyLine(data); len(rest) < len(data) {
		data, skipped = rest, 1
	}
	r := csv.NewReader(bytes.NewReader(data))
	head, err := r.Read()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", name, err)
	}
	var hb strings.Builder
	if err := WriteTable(&hb, head, nil); err != nil {
		return nil, "", err
	}
	if data[len(data)-1] != '\n' {
		return nil, "", fmt.Errorf("%s: the last line is cut short: the shard did not finish", name)
	}
	var out []Line
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, hb.String(), nil
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s: %v", name, err)
		}
		line, _ := r.FieldPos(0)
		l := Line{Where: fmt.Sprintf("%s:%d", name, skipped+line)}
		p, err1 := strconv.Atoi(rec[0])
		t, err2 := strconv.Atoi(rec[1])
		if err1 != nil || err2 != nil {
			return nil, "", fmt.Errorf("%s: the point and points columns are not whole numbers", l.Where)
		}
		l.Point, l.Points = p, t
		var b bytes.Buffer
		if err := WriteRows(&b, [][]string{rec}); err != nil {
			return nil, "", err
		}
		l.Text = b.Bytes()
		out = append(out, l)
	}
}
