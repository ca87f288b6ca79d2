package parser

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
)

// traceColumns are the fields of a message trace, in the order a CSV
// header usually gives them.
var traceColumns = []string{"id", "time", "after", "src", "dst", "bytes", "tag"}

// ReadTrace reads a message-list trace: one message per line, as CSV with
// a header line or as JSON lines, with the fields
//
//	src, dst   the sending and receiving ranks (0, 1, … lang.MaxRanks-1)
//	bytes      the size: a number of bytes or a size with its unit (4KB)
//	time       when the message is sent: seconds or a time with its unit (1.5us)
//	after      or instead: the id of an earlier message; this one is sent as
//	           soon as its sender has received that one
//	tag        optional, a tag from 0 to 2^63 - 1 (default 0); tags above
//	           math.MaxInt32 are renumbered as ReadGOAL's are
//	id         optional, the message's name, for after and as the label of
//	           its operations (default: its number, 1, 2, …)
//
// for example
//
//	time,src,dst,bytes          {"time": "0s", "src": 0, "dst": 1, "bytes": "4KB"}
//	0s,0,1,4KB                  {"after": 1, "src": 1, "dst": 0, "bytes": 8}
//
// A message with neither time nor after is sent at time 0. Lines that are
// blank or start with '#' are skipped.
//
// Each message becomes a send on src and a matching receive on dst (posted
// at the start). A send with a time waits for it on a timer, a chain of
// calcs on the sender's second CPU (CPU 1), so that the sender's own CPU
// stays free for the messages it receives meanwhile; a send with after
// requires the receive of that message. The ranks are 0 to the largest
// src or dst.
//
// The input is streamed a line at a time; what is kept (about 60 bytes per
// message while reading, then the schedule) is checked against maxMemory.
// Errors are lang.Diagnostics with the line and a caret, at most
// MaxErrors.
func ReadTrace(r io.Reader, name string, maxMemory int64) (*lang.Schedule, error) {
	t := &traceReader{name: name, max: limits.Or(maxMemory), lines: newLineReader(r), ids: map[string]int32{}, badIDs: map[string]bool{}}
	t.read()
	if len(t.errs) > 0 {
		return nil, t.errs.Err()
	}
	return t.build()
}

// traceRankBytes is what build allocates per rank: four int32 arrays.
const traceRankBytes = 4 * 4

// A traceMsg is one message as read.
type traceMsg struct {
	start     float64 // seconds; used when after < 0
	bytes     int64
	src, dst  int32
	tag       int32
	after     int32 // index of the message it follows, -1 for none
	line      int32
	label     int32
	timerPrev int32 // scratch for build
}

type traceReader struct {
	name  string
	max   int64
	lines *lineReader
	errs  lang.Diagnostics
	stop  bool

	line   []byte
	lineNo int

	json    bool
	started bool
	col     map[string]int // CSV column -> field index
	width   int            // fields in the CSV header
	msgs    []traceMsg
	ids     map[string]int32 // id -> message index, when ids are given
	hasIDs  bool
	labels  []string
	idBytes int64
	ranks   int32
	// Messages in error are dropped, so that numbers past one no longer
	// name the same message and its id names none: a reference to them is
	// not reported again.
	seen         int             // message lines read, in error or not
	firstDropped int             // the number of the first in error, 0 for none
	badIDs       map[string]bool // the ids of messages in error
	// bigTags numbers the distinct tags above math.MaxInt32 as ReadGOAL's
	// do: a message's tag is -2 - that number until build renumbers them
	// (renumberTags).
	bigTags map[int64]int32
}

func (t *traceReader) errorAt(s, e int, format string, args ...any) {
	if len(t.errs) >= MaxErrors {
		t.stop = true
		return
	}
	src := lang.NewSourceLine(t.name, string(t.line), t.lineNo)
	d := lang.Errorf(src.PosAt(s), format, args...)
	if e > s+1 {
		d.Span(src.PosAt(e))
	}
	t.errs = append(t.errs, d)
}

func (t *traceReader) read() {
	for !t.stop {
		line, err := t.lines.next()
		if errors.Is(err, io.EOF) {
			break
		}
		t.lineNo = t.lines.n
		if err != nil {
			t.line = nil
			if errors.Is(err, errLongLine) {
				t.errorAt(0, 0, "line longer than %d bytes", MaxGOALLine)
			} else {
				t.errorAt(0, 0, "reading %s: %v", t.name, err)
			}
			return
		}
		t.line = line
		text := strings.TrimSpace(string(line))
		if text == "" || text[0] == '#' {
			continue
		}
		if !t.started {
			t.started = true
			if text[0] == '{' {
				t.json = true
			} else {
				t.header()
				continue
			}
		}
		before := len(t.msgs)
		if t.json {
			t.jsonLine()
		} else {
			t.csvLine()
		}
		t.seen++
		if len(t.msgs) == before && t.firstDropped == 0 {
			t.firstDropped = t.seen
		}
	}
	switch {
	case len(t.errs) > 0 || len(t.msgs) > 0:
	case !t.started:
		t.lineNo = t.lines.n
		t.errorAt(0, 0, "no messages: a trace is CSV with a header line (time,src,dst,bytes) or JSON lines")
	default:
		// A header alone would make a schedule of no ranks.
		t.lineNo, t.line = t.lines.n, nil
		t.errorAt(0, 0, "no messages: the header is followed by no message lines")
	}
}

// fields splits a CSV line at commas, returning each field's text (spaces
// and surrounding quotes removed) and where it starts.
func (t *traceReader) fields() (vals []string, at []int) {
	line := string(t.line)
	start := 0
	for i := 0; i <= len(line); i++ {
		if i == len(line) || line[i] == ',' {
			f := line[start:i]
			lead := len(f) - len(strings.TrimLeft(f, " \t"))
			f = strings.TrimSpace(f)
			if len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
				f = f[1 : len(f)-1]
			}
			vals = append(vals, f)
			at = append(at, start+lead)
			start = i + 1
		}
	}
	return vals, at
}

func (t *traceReader) header() {
	names, at := t.fields()
	t.col = map[string]int{}
	for i, n := range names {
		n = strings.ToLower(n)
		if !slices.Contains(traceColumns, n) {
			t.errorAt(at[i], at[i]+len(n), "unknown column %q (columns are %s)%s", lang.Excerpt(n), strings.Join(traceColumns, ", "), lang.DidYouMean(n, traceColumns))
			continue
		}
		if _, dup := t.col[n]; dup {
			t.errorAt(at[i], at[i]+len(n), "column %s appears twice", n)
			continue
		}
		t.col[n] = i
	}
	for _, need := range []string{"src", "dst", "bytes"} {
		if _, ok := t.col[need]; !ok {
			t.errorAt(0, 0, "the header has no %s column (a trace needs src, dst and bytes, and time or after)", need)
			t.stop = true
		}
	}
	_, t.hasIDs = t.col["id"]
	t.width = len(names)
}

// traceField is one field's text and its place in the line (-1: absent).
type traceField struct {
	text string
	at   int
}

func (t *traceReader) csvLine() {
	vals, at := t.fields()
	switch {
	case len(vals) < t.width:
		t.errorAt(len(t.line), len(t.line), "%d fields, the header has %d", len(vals), t.width)
		return
	case len(vals) > t.width:
		t.errorAt(at[t.width], len(t.line), "%d fields, the header has %d", len(vals), t.width)
		return
	}
	f := make(map[string]traceField, len(t.col))
	for c, i := range t.col {
		f[c] = traceField{vals[i], at[i]}
	}
	t.message(f)
}

func (t *traceReader) jsonLine() {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(t.line, &obj); err != nil {
		col := 0
		var se *json.SyntaxError
		if errors.As(err, &se) {
			col = int(se.Offset) - 1
		}
		t.errorAt(max(col, 0), max(col, 0), "not a JSON object: %v", err)
		return
	}
	// The object is valid; it is read again key by key, in order and with
	// positions, so that a key given twice is refused (the map keeps the
	// last value), as a CSV column given twice is.
	f := map[string]traceField{}
	first := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(t.line))
	if _, err := dec.Token(); err != nil { // '{'
		t.errorAt(0, 0, "not a JSON object: %v", err)
		return
	}
	for dec.More() {
		at := int(dec.InputOffset())
		for at < len(t.line) && (t.line[at] == ',' || t.line[at] == ' ' || t.line[at] == '\t' || t.line[at] == '\r') {
			at++
		}
		tok, err := dec.Token()
		k, ok := tok.(string)
		if err != nil || !ok {
			t.errorAt(at, at, "not a JSON object: expected a key")
			return
		}
		kend := int(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.errorAt(kend, kend, "not a JSON object: %v", err)
			return
		}
		vat := int(dec.InputOffset()) - len(raw)
		key := strings.ToLower(k)
		if !slices.Contains(traceColumns, key) {
			t.errorAt(at, kend, "unknown field %q (fields are %s)%s", lang.Excerpt(k), strings.Join(traceColumns, ", "), lang.DidYouMean(key, traceColumns))
			return
		}
		if p, dup := first[key]; dup {
			t.errorAt(at, kend, "field %s appears twice (first at column %d)", key, p+1)
			return
		}
		first[key] = at
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			s = string(raw) // a number
		}
		f[key] = traceField{s, max(vat, 0)}
	}
	for _, need := range []string{"src", "dst", "bytes"} {
		if _, ok := f[need]; !ok {
			t.errorAt(0, 0, "message without %s (a message needs src, dst and bytes, and time or after)", need)
			return
		}
	}
	if _, ok := f["id"]; ok {
		t.hasIDs = true
	}
	t.message(f)
}

// integer reads a whole number within [lo, hi].
func (t *traceReader) integer(f traceField, what string, lo, hi int64) (int64, bool) {
	v, err := strconv.ParseInt(f.text, 10, 64)
	if err != nil || v < lo || v > hi {
		t.errorAt(f.at, f.at+len(f.text), "%s %q is not a whole number from %d to %d", what, lang.Excerpt(f.text), lo, hi)
		return 0, false
	}
	return v, true
}

// rank reads a rank number, 0 to lang.MaxRanks-1.
func (t *traceReader) rank(f traceField, what string) (int64, bool) {
	if v, err := strconv.ParseInt(f.text, 10, 64); err == nil && v >= lang.MaxRanks {
		t.errorAt(f.at, f.at+len(f.text), "%s %d is out of range: ranks are 0 to %d (a schedule has at most %d)", what, v, lang.MaxRanks-1, lang.MaxRanks)
		return 0, false
	}
	return t.integer(f, what, 0, lang.MaxRanks-1)
}

func (t *traceReader) message(f map[string]traceField) {
	defer func(n int) {
		if id := f["id"].text; id != "" && len(t.msgs) == n {
			t.badIDs[id] = true
		}
	}(len(t.msgs))
	m := traceMsg{after: -1, line: int32(min(t.lineNo, math.MaxInt32)), label: -1, timerPrev: -1}
	src, ok1 := t.rank(f["src"], "src")
	dst, ok2 := t.rank(f["dst"], "dst")
	if !ok1 || !ok2 {
		return
	}
	m.src, m.dst = int32(src), int32(dst)
	b := f["bytes"]
	v, err := lang.ParseQuantity(b.text)
	switch {
	case err != nil:
		t.errorAt(b.at, b.at+len(b.text), "bytes: %v", err)
		return
	case v.Dim != lang.SizeDim && v.Dim != lang.Dimensionless:
		t.errorAt(b.at, b.at+len(b.text), "bytes %s is a %s, not a size", lang.Excerpt(b.text), v.TypeName())
		return
	case !(v.Num >= 0) || v.Num > math.MaxInt64/2:
		t.errorAt(b.at, b.at+len(b.text), "bytes %s is out of range", lang.Excerpt(b.text))
		return
	}
	m.bytes = int64(math.Round(v.Num))
	if tf, ok := f["tag"]; ok && tf.text != "" {
		tag, ok := t.integer(tf, "tag", 0, math.MaxInt64)
		if !ok {
			return
		}
		if tag <= math.MaxInt32 {
			m.tag = int32(tag)
		} else {
			// Numbered apart, so that an operation keeps its 32-bit tag
			// (renumberTags, as for GOAL).
			if t.bigTags == nil {
				t.bigTags = map[int64]int32{}
			}
			id, seen := t.bigTags[tag]
			if !seen {
				id = int32(len(t.bigTags))
				t.bigTags[tag] = id
				t.idBytes += bigTagBytes
			}
			m.tag = -2 - id
		}
	}
	tf, hasTime := f["time"]
	af, hasAfter := f["after"]
	hasTime = hasTime && tf.text != ""
	hasAfter = hasAfter && af.text != ""
	switch {
	case hasTime && hasAfter:
		t.errorAt(af.at, af.at+len(af.text), "a message has a time or comes after another, not both")
		return
	case hasTime:
		v, err := lang.ParseQuantity(tf.text)
		switch {
		case err != nil:
			t.errorAt(tf.at, tf.at+len(tf.text), "time: %v", err)
			return
		case v.Dim != lang.TimeDim && v.Dim != lang.Dimensionless:
			t.errorAt(tf.at, tf.at+len(tf.text), "time %s is a %s, not a time", lang.Excerpt(tf.text), v.TypeName())
			return
		case !(v.Num >= 0) || v.Num > 1e6:
			t.errorAt(tf.at, tf.at+len(tf.text), "time %s is out of range (0 to 1e6 s)", lang.Excerpt(tf.text))
			return
		}
		m.start = v.Num
	case hasAfter:
		prev, ok := t.lookup(af)
		if !ok {
			return
		}
		if p := t.msgs[prev]; p.dst != m.src {
			t.errorAt(af.at, af.at+len(af.text), "message %s goes to rank %d, so rank %d cannot send after it", lang.Excerpt(af.text), p.dst, m.src)
			return
		}
		m.after = prev
	}
	if len(t.msgs) >= math.MaxInt32/3-1 {
		t.errorAt(0, 0, "more than %d messages", math.MaxInt32/3-1)
		t.stop = true
		return
	}
	// A message is labelled by its id, or by its number when it has none.
	label := strconv.Itoa(len(t.msgs) + 1)
	if idf, ok := f["id"]; ok && idf.text != "" {
		if _, dup := t.ids[idf.text]; dup {
			t.errorAt(idf.at, idf.at+len(idf.text), "id %s is given twice", lang.Excerpt(idf.text))
			return
		}
		t.ids[idf.text] = int32(len(t.msgs))
		t.idBytes += 64
		label = idf.text
	}
	t.idBytes += int64(len(label)) + 16
	m.label = int32(len(t.labels))
	t.labels = append(t.labels, label)
	if len(t.msgs) == cap(t.msgs) || t.idBytes > 1<<20 {
		need := limits.Add(limits.Mul(int64(cap(t.msgs)+cap(t.msgs)/4+1024), 2*int64(unsafe.Sizeof(traceMsg{}))), t.idBytes, limits.Mul(int64(len(t.labels)), 16))
		if err := limits.Check(fmt.Sprintf("this trace (%d messages so far)", len(t.msgs)), need, t.max); err != nil {
			t.errorAt(0, 0, "%v", err)
			t.stop = true
			return
		}
	}
	if r := max(m.src, m.dst) + 1; r > t.ranks {
		// The ranks' offsets and scratch are checked where a rank first
		// appears, so that the error points at it.
		fld, what := f["dst"], "dst"
		if m.src > m.dst {
			fld, what = f["src"], "src"
		}
		need := limits.Add(limits.Mul(int64(cap(t.msgs)), int64(unsafe.Sizeof(traceMsg{}))), t.idBytes, limits.Mul(int64(r)+1, traceRankBytes))
		if err := limits.Check(fmt.Sprintf("%s %d (a schedule of %d ranks)", what, r-1, r), need, t.max); err != nil {
			t.errorAt(fld.at, fld.at+len(fld.text), "%v", err)
			t.stop = true
			return
		}
		t.ranks = r
	}
	t.msgs = append(t.msgs, m)
}

// lookup finds the earlier message an after field names: by id when the
// trace gives ids, else by number (1 for the first message).
func (t *traceReader) lookup(f traceField) (int32, bool) {
	if t.hasIDs || len(t.ids) > 0 {
		if i, ok := t.ids[f.text]; ok {
			return i, true
		}
		if t.badIDs[f.text] {
			return 0, false
		}
		t.errorAt(f.at, f.at+len(f.text), "after %s: no earlier message has that id", lang.Excerpt(f.text))
		return 0, false
	}
	n, err := strconv.ParseInt(f.text, 10, 64)
	switch {
	case t.seen == 0:
		t.errorAt(f.at, f.at+len(f.text), "after %s: the first message has no earlier one to come after", lang.Excerpt(f.text))
		return 0, false
	case err != nil || n < 1 || n > int64(t.seen):
		t.errorAt(f.at, f.at+len(f.text), "after %s: not the number of an earlier message (1 to %d; the trace gives no ids)", lang.Excerpt(f.text), t.seen)
		return 0, false
	case t.firstDropped > 0 && n >= int64(t.firstDropped):
		return 0, false
	}
	return int32(n - 1), true
}

// build lays the messages out rank by rank: on each rank, in the order of
// the trace, a message's timer and send on its sender and its receive on
// its receiver.
func (t *traceReader) build() (*lang.Schedule, error) {
	msgs := t.msgs
	R := int(t.ranks)
	n := 2 * len(msgs) // a send and a receive each, and the timers
	for i := range msgs {
		if msgs[i].after < 0 && msgs[i].start > 0 {
			n++
		}
	}
	// Checked before anything is allocated: the operations and their
	// dependencies, the messages still held, and per rank the offsets
	// and scratch (count, RankStart, fill, lastTimer).
	need := limits.Add(limits.Mul(int64(n), schedOpBytes), limits.Mul(int64(len(msgs)), 2*schedDepBytes+12),
		limits.Mul(int64(len(msgs)), int64(unsafe.Sizeof(traceMsg{}))), limits.Mul(int64(R)+1, traceRankBytes))
	if len(t.bigTags) > 0 {
		// renumberTags's tags in use and new numbers.
		need = limits.Add(need, limits.Mul(int64(n+len(t.bigTags)), 4))
	}
	if err := limits.Check(fmt.Sprintf("the schedule of %s (%d operations, %d ranks)", t.name, n, R), need, t.max); err != nil {
		return nil, err
	}
	// Operations per rank, then each message's operation indexes.
	count := make([]int32, R+1)
	for i := range msgs {
		m := &msgs[i]
		count[m.src+1]++ // send
		count[m.dst+1]++ // receive
		if m.after < 0 && m.start > 0 {
			count[m.src+1]++ // timer
		}
	}
	for r := 1; r <= R; r++ {
		count[r] += count[r-1]
	}
	s := &lang.Schedule{Name: t.name, Ranks: R, Src: lang.NewSource(t.name, ""), Labels: t.labels,
		Ops: make([]lang.SchedOp, n), RankStart: slices.Clone(count)}
	fill := slices.Clone(count[:R])
	// dep[i] is operation i's one prerequisite (-1: none); sendOp and
	// recvOp locate each message's operations.
	dep := make([]int32, n)
	for i := range dep {
		dep[i] = -1
	}
	recvOp := make([]int32, len(msgs))
	// The timers of a rank run in time order, each waiting for the
	// previous one: their durations are the gaps between start times.
	lastTimer := make([]int32, R) // message index of the rank's latest timer
	for i := range lastTimer {
		lastTimer[i] = -1
	}
	order := make([]int32, 0, len(msgs))
	for i := range msgs {
		if msgs[i].after < 0 && msgs[i].start > 0 {
			order = append(order, int32(i))
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		x, y := &msgs[a], &msgs[b]
		return cmp.Or(cmp.Compare(x.src, y.src), cmp.Compare(x.start, y.start))
	})
	for _, i := range order {
		m := &msgs[i]
		m.timerPrev = lastTimer[m.src]
		lastTimer[m.src] = i
	}
	timerOp := make([]int32, len(msgs))
	for i := range msgs {
		m := &msgs[i]
		if m.after < 0 && m.start > 0 {
			k := fill[m.src]
			fill[m.src]++
			d := m.start
			if m.timerPrev >= 0 {
				d -= msgs[m.timerPrev].start
			}
			s.Ops[k] = lang.SchedOp{Kind: lang.OpCalc, Time: d, CPU: 1, Label: -1, Line: m.line}
			timerOp[i] = k
		}
		k := fill[m.src]
		fill[m.src]++
		s.Ops[k] = lang.SchedOp{Kind: lang.OpSend, Bytes: m.bytes, Peer: m.dst, Tag: m.tag, Label: m.label, Line: m.line}
		switch {
		case m.after >= 0:
			dep[k] = recvOp[m.after]
		case m.start > 0:
			dep[k] = timerOp[i]
		}
		k = fill[m.dst]
		fill[m.dst]++
		s.Ops[k] = lang.SchedOp{Kind: lang.OpRecv, Bytes: m.bytes, Peer: m.src, Tag: m.tag, Label: m.label, Line: m.line}
		recvOp[i] = k
	}
	for i := range msgs {
		m := &msgs[i]
		if m.after < 0 && m.start > 0 && m.timerPrev >= 0 {
			dep[timerOp[i]] = timerOp[m.timerPrev]
		}
	}
	s.Deps = make([]lang.SchedDep, 0, len(msgs))
	s.DepStart = make([]int32, n+1)
	for i, d := range dep {
		s.DepStart[i+1] = s.DepStart[i]
		if d >= 0 {
			s.Deps = append(s.Deps, lang.SchedDep{Op: d})
			s.DepStart[i+1]++
		}
	}
	if len(t.bigTags) > 0 {
		renumberTags(s.Ops, len(t.bigTags))
	}
	return s, nil
}
