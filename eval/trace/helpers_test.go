package trace_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval/program"
	"github.com/parasol-lang/parasol/eval/trace"
	"github.com/parasol-lang/parasol/lang"
)

// checked is what validate read from a trace.
type checked struct {
	processes   map[int]string // pid -> process_name
	spans       []span
	flows       []flow
	kinds       map[int]map[string]int // pid -> cat -> complete events
	extraTracks int                    // threads named "rank R (2)" and on
}

type span struct {
	pid, tid, rank int
	cat, name      string
	start, dur     float64 // µs
	startPS, endPS int64
}

type flow struct {
	pid, from, to int
}

// validate checks data against the trace-event format (the Trace Event
// Format document, as Perfetto reads it): one object {"traceEvents": [...]},
// every event with the fields its phase needs ("X": name, cat, ts, dur ≥ 0,
// pid, tid; "M": a known metadata name and its argument; "s"/"f": name,
// cat, id, ts, pid, tid, "f" binding to its enclosing slice with "bp":
// "e"), every thread that has events named, complete events on one
// thread in time order and properly nested, each flow's "s" paired with
// one "f" of the same id, cat and name, not earlier, and both inside a
// complete event of their thread (what they bind to).
func validate(t *testing.T, data []byte) *checked {
	t.Helper()
	var doc map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not one JSON object: %v", err)
	}
	for k := range doc {
		if k != "traceEvents" && k != "displayTimeUnit" {
			t.Errorf("unknown top-level key %q", k)
		}
	}
	var events []map[string]any
	dec = json.NewDecoder(bytes.NewReader(doc["traceEvents"]))
	dec.UseNumber()
	if err := dec.Decode(&events); err != nil {
		t.Fatalf("traceEvents: %v", err)
	}
	c := &checked{processes: map[int]string{}, kinds: map[int]map[string]int{}}
	type track struct{ pid, tid int }
	named := map[track]string{}
	open := map[track][]int64{} // ends of the open complete events
	last := map[track]int64{}
	used := map[track]bool{}
	type fend struct {
		ph, cat, name string
		pid, tid      int
		ts            int64
		from, to      int
	}
	ends := map[string][]fend{}
	var order []string
	for i, e := range events {
		fail := func(format string, args ...any) {
			t.Helper()
			b, _ := json.Marshal(e)
			t.Errorf("event %d %s: "+format, append([]any{i, b}, args...)...)
		}
		str := func(k string) string {
			v, ok := e[k].(string)
			if !ok {
				fail("%q is not a string", k)
			}
			return v
		}
		num := func(k string) float64 {
			n, ok := e[k].(json.Number)
			if !ok {
				fail("%q is not a number", k)
				return 0
			}
			f, err := n.Float64()
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				fail("%q: %v", k, err)
			}
			return f
		}
		integer := func(k string) int {
			f := num(k)
			if f != math.Trunc(f) {
				fail("%q is not an integer", k)
			}
			return int(f)
		}
		ph := str("ph")
		pid, tid := integer("pid"), integer("tid")
		name := str("name")
		tk := track{pid, tid}
		switch ph {
		case "M":
			args, _ := e["args"].(map[string]any)
			switch name {
			case "process_name":
				v, ok := args["name"].(string)
				if !ok {
					fail("process_name without args.name")
				}
				c.processes[pid] = v
			case "thread_name":
				v, ok := args["name"].(string)
				if !ok {
					fail("thread_name without args.name")
				}
				named[tk] = v
				if strings.Contains(v, "(") {
					c.extraTracks++
				}
			case "process_sort_index", "thread_sort_index":
				if _, ok := args["sort_index"].(json.Number); !ok {
					fail("%s without a numeric args.sort_index", name)
				}
			default:
				fail("unknown metadata event %q", name)
			}
		case "X":
			cat := str("cat")
			ts, dur := num("ts"), num("dur")
			if ts < 0 || dur < 0 {
				fail("negative ts or dur")
			}
			a, b := toPS(ts), toPS(ts)+toPS(dur)
			if a < last[tk] {
				fail("starts at %d ps, before the event before it on its track (%d ps)", a, last[tk])
			}
			last[tk] = a
			st := open[tk]
			for len(st) > 0 && st[len(st)-1] <= a {
				st = st[:len(st)-1]
			}
			if len(st) > 0 && b > st[len(st)-1] {
				fail("ends at %d ps, after the event it starts in (%d ps): not nested", b, st[len(st)-1])
			}
			open[tk] = append(st, b)
			used[tk] = true
			rank := -1
			if v, ok := named[tk]; ok {
				f := strings.Fields(strings.TrimPrefix(v, "rank "))
				if len(f) > 0 {
					rank, _ = strconv.Atoi(f[0])
				}
			}
			c.spans = append(c.spans, span{pid: pid, tid: tid, rank: rank, cat: cat, name: name, start: ts, dur: dur, startPS: a, endPS: b})
			if c.kinds[pid] == nil {
				c.kinds[pid] = map[string]int{}
			}
			c.kinds[pid][cat]++
		case "s", "f":
			cat := str("cat")
			ts := num("ts")
			id := e["id"]
			idn, ok := id.(json.Number)
			if !ok {
				fail("flow without a numeric id")
			}
			if ph == "f" && e["bp"] != "e" {
				fail(`"f" without "bp": "e" binds to the next slice, not the receive's`)
			}
			args, _ := e["args"].(map[string]any)
			from, _ := args["from"].(json.Number).Int64()
			to, _ := args["to"].(json.Number).Int64()
			key := cat + "/" + idn.String()
			if len(ends[key]) == 0 {
				order = append(order, key)
			}
			ends[key] = append(ends[key], fend{ph, cat, name, pid, tid, toPS(ts), int(from), int(to)})
			used[tk] = true
		default:
			fail("unknown phase %q", ph)
		}
	}
	for tk := range used {
		if _, ok := named[tk]; !ok {
			t.Errorf("pid %d tid %d has events but no thread_name", tk.pid, tk.tid)
		}
		if _, ok := c.processes[tk.pid]; !ok {
			t.Errorf("pid %d has events but no process_name", tk.pid)
		}
	}
	inside := func(f fend) bool {
		for _, s := range c.spans {
			if s.pid == f.pid && s.tid == f.tid && s.startPS < f.ts && f.ts < s.endPS {
				return true
			}
		}
		return false
	}
	for _, key := range order {
		es := ends[key]
		if len(es) != 2 || es[0].ph != "s" || es[1].ph != "f" {
			t.Errorf("flow %s: want one \"s\" then one \"f\", got %d events", key, len(es))
			continue
		}
		s, f := es[0], es[1]
		if s.name != f.name || s.pid != f.pid {
			t.Errorf("flow %s: its ends differ in name or process", key)
		}
		if f.ts < s.ts {
			t.Errorf("flow %s: received at %d ps, before it was sent at %d ps", key, f.ts, s.ts)
		}
		if !inside(s) || !inside(f) {
			t.Errorf("flow %s: an end is not inside a slice of its track (sent inside: %v, received inside: %v)", key, inside(s), inside(f))
		}
		c.flows = append(c.flows, flow{pid: s.pid, from: s.from, to: s.to})
	}
	return c
}

// toPS is a time in µs as whole picoseconds.
func toPS(us float64) int64 { return int64(math.Round(us * 1e6)) }

// writeBoth writes the trace of both answers of res, a run of schedule s.
func writeBoth(t *testing.T, s *lang.Schedule, res *program.RunResult) *bytes.Buffer {
	t.Helper()
	var b bytes.Buffer
	if err := trace.Write(&b, trace.Options{Schedule: s}, res.Analytic, res.Simulated); err != nil {
		t.Fatal(err)
	}
	return &b
}
