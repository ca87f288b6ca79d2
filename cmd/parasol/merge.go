package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/internal/limits"
)

// mergeLine is one point of a shard's output: its index, the sweep's
// point count it claims, and its bytes as printed.
type mergeLine struct {
	point, points int
	text          []byte
	where         string // file:line, for messages
}

// mergeCmd is parasol merge.
var mergeCmd = &command{
	name:    "merge",
	summary: "join the outputs of the shards of a sweep or of sim --runs",
	args:    "FILES…",
	doc: `
Merge joins the outputs of the shards of a sweep (parasol sweep --shard
I/N) into exactly the bytes the whole sweep prints: the points in order,
one CSV header. The files are all JSON lines, all CSV or all text, as
the sweep printed them; every point of the sweep must be in exactly one.

It joins the shards of one simulation's runs (parasol sim --runs R
--shard I/N) the same way: their runs' records are aggregated in run
order into exactly what sim --runs R prints, in the --format the shards
were given. Every shard must be there once.

Example:
  for i in 0 1 2; do parasol sweep std:xmp64 --op alltoall --size 32..4KB*2 --shard $i/3 --json > part$i.jsonl & done; wait
  parasol merge part0.jsonl part1.jsonl part2.jsonl > sweep.jsonl
  for i in 0 1 2 3; do parasol sim std:xmp64 --op randperm --runs 10000 --json --shard $i/4 > runs$i & done; wait
  parasol merge runs0 runs1 runs2 runs3 > randperm.json`,
	flags: declareMerge,
}

// declareMerge declares merge's flags on fs and returns the function that runs it.
func declareMerge(e *env, fs *flag.FlagSet) func(files []string) error {
	maxMemory := memoryFlag()
	fs.Var(&maxMemory, "max-memory", maxMemoryUsage)
	return func(files []string) error {
		// Every shard's lines are held until the last file is read, about
		// twice the files' bytes.
		var held int64
		if len(files) == 0 {
			return usageError("parasol merge: need the FILES a sharded sweep wrote\nUsage: parasol merge FILES…")
		}
		var lines []mergeLine
		var runShards [][]byte
		header, kind, kindFrom := "", "", ""
		for _, name := range files {
			// A device or FIFO would be read forever or block (issue 8's
			// rule for every input); a shard's output is a regular file.
			if st, err := os.Stat(name); err == nil && !st.Mode().IsRegular() {
				return fmt.Errorf("parasol merge: %s is not a regular file", name)
			}
			data, err := eval.ReadInput(name, maxMemory.bytes())
			if err != nil {
				return fmt.Errorf("parasol merge: %v", err)
			}
			held = limits.Add(held, limits.Mul(2, int64(len(data))))
			if err := limits.Check("merging "+strings.Join(files, ", "), held, maxMemory.bytes()); err != nil {
				return fmt.Errorf("parasol merge: %v", err)
			}
			if isRunShard(data) {
				runShards = append(runShards, data)
				continue
			}
			ls, h, err := mergeLines(name, data)
			if err != nil {
				return err
			}
			k := outputKind(data)
			switch {
			case k == "":
				continue // a shard with no points, as text or JSON
			case kind == "":
				header, kind, kindFrom = h, k, name
			case k != kind:
				return fmt.Errorf("parasol merge: %s is %s, %s is %s: merge shards printed in one format", name, k, kindFrom, kind)
			case h != header:
				return fmt.Errorf("parasol merge: %s: the CSV header differs from %s's: not shards of one sweep", name, kindFrom)
			}
			lines = append(lines, ls...)
		}
		switch {
		case len(runShards) == len(files):
			return mergeRunShards(e.stdout, files, runShards)
		case len(runShards) > 0:
			return fmt.Errorf("parasol merge: some files are shards of sim --runs and some of a sweep: merge each kind alone")
		}
		if len(lines) == 0 {
			// Shard 0 holds point 0 of every sweep, so files without a point
			// are never the whole of one.
			return fmt.Errorf("parasol merge: no point of a sweep in %s: a shard is missing or did not finish", strings.Join(files, ", "))
		}
		sort.SliceStable(lines, func(a, b int) bool { return lines[a].point < lines[b].point })
		if err := checkMerged(lines); err != nil {
			return err
		}
		w := bufio.NewWriter(e.stdout)
		w.WriteString(header)
		for _, l := range lines {
			w.Write(l.text)
		}
		return w.Flush()
	}
}

// checkMerged reports a point given twice, points missing and shards
// that disagree on the sweep's size.
func checkMerged(lines []mergeLine) error {
	total := lines[0].points
	var missing []string
	next := 0
	for i, l := range lines {
		switch {
		case l.points != total:
			return fmt.Errorf("%s: point %d is of a sweep of %d points, %s's of %d: not shards of one sweep", l.where, l.point, l.points, lines[0].where, total)
		case i > 0 && lines[i-1].point == l.point:
			return fmt.Errorf("%s: point %d is also at %s", l.where, l.point, lines[i-1].where)
		case l.point < 0 || l.point >= total:
			return fmt.Errorf("%s: point %d is outside the sweep's %d points", l.where, l.point, total)
		}
		for ; next < l.point; next++ {
			missing = append(missing, strconv.Itoa(next))
		}
		next = l.point + 1
	}
	for ; next < total; next++ {
		missing = append(missing, strconv.Itoa(next))
	}
	if n := len(missing); n > 0 {
		if n > 10 {
			missing = append(missing[:10], "…")
		}
		return fmt.Errorf("parasol merge: %d of the %d points are in no file (%s): a shard is missing or did not finish", n, total, strings.Join(missing, ", "))
	}
	return nil
}

// mergeLines splits one shard's output into its points, telling JSON
// lines, CSV (returning its header) and text apart by the first line.
func mergeLines(name string, data []byte) ([]mergeLine, string, error) {
	if len(data) == 0 {
		return nil, "", nil
	}
	if bytes.HasPrefix(data, []byte("point,points,")) {
		return mergeCSV(name, data)
	}
	var out []mergeLine
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
		l := mergeLine{text: line, where: where}
		switch {
		case bytes.HasPrefix(line, []byte("{")):
			var key struct{ Point, Points *int }
			if err := json.Unmarshal(line, &key); err != nil || key.Point == nil || key.Points == nil {
				return nil, "", fmt.Errorf("%s: not a point of a sweep's JSON output (no \"point\" and \"points\")", where)
			}
			l.point, l.points = *key.Point, *key.Points
		default:
			if _, err := fmt.Sscanf(string(line), "point %d/%d:", &l.point, &l.points); err != nil {
				return nil, "", fmt.Errorf("%s: not a point of a sweep's output: %.40q", where, line)
			}
		}
		out = append(out, l)
	}
	return out, "", nil
}

// mergeCSV reads a CSV shard; each row is written back as encoding/csv
// wrote it, so the bytes are the sweep's.
func mergeCSV(name string, data []byte) ([]mergeLine, string, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.ReuseRecord = false
	head, err := r.Read()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", name, err)
	}
	var hb bytes.Buffer
	if err := csvTable(&hb, head, nil); err != nil {
		return nil, "", err
	}
	if data[len(data)-1] != '\n' {
		return nil, "", fmt.Errorf("%s: the last line is cut short: the shard did not finish", name)
	}
	var out []mergeLine
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, hb.String(), nil
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s: %v", name, err)
		}
		line, _ := r.FieldPos(0)
		where := fmt.Sprintf("%s:%d", name, line)
		l := mergeLine{where: where}
		p, err1 := strconv.Atoi(rec[0])
		t, err2 := strconv.Atoi(rec[1])
		if err1 != nil || err2 != nil {
			return nil, "", fmt.Errorf("%s: the point and points columns are not whole numbers", where)
		}
		l.point, l.points = p, t
		var b bytes.Buffer
		if err := csvRows(&b, [][]string{rec}); err != nil {
			return nil, "", err
		}
		l.text = b.Bytes()
		out = append(out, l)
	}
}

// outputKind is the format a shard's output is in, "" when it is empty.
func outputKind(data []byte) string {
	switch {
	case len(data) == 0:
		return ""
	case bytes.HasPrefix(data, []byte("point,points,")):
		return "CSV"
	case data[0] == '{':
		return "JSON"
	}
	return "text"
}
