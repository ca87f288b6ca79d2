package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/hugepages"
	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
)

// MaxGOALLine bounds one line of a GOAL schedule or a trace: the readers
// stream their input line by line and never hold more than one line.
const MaxGOALLine = 1 << 20

// Bytes a schedule holds per operation and per dependency (the contract
// in lang/schedule.go keeps them flat), and per distinct label: its text,
// its string header and its entries in the intern map and the per-rank
// label table.
const (
	schedOpBytes    = int64(unsafe.Sizeof(lang.SchedOp{})) + 4 // + its DepStart entry
	schedDepBytes   = int64(unsafe.Sizeof(lang.SchedDep{}))
	labelFixedBytes = 16 + 48 + 8
)

// ReadGOAL reads a schedule in LogGOPSim's GOAL text format, as its
// schedgen and txt2bin write and read it:
//
//	num_ranks 2
//	rank 0 {
//	l1: send 8b to 1 tag 0
//	l2: calc 100 cpu 0
//	l2 requires l1
//	}
//	rank 1 {
//	l1: recv 8b from -1 tag -1 // any source, any tag
//	}
//
// A statement ends at the end of its line (as in txt2bin) or at a ';' or
// '}'; "calc" times are nanoseconds; "cpu N" and "nic N" name the CPU and
// the NIC of its processor an operation uses (lang.SchedOp.CPU, NIC). Labels are local to their rank and may be
// used before they are defined. Ranks come in increasing order; a rank
// that has no block has no operations; num_ranks is at most lang.MaxRanks.
// Tags go up to 2^63 - 1; those above math.MaxInt32 are renumbered to
// numbers no other tag of the schedule has (lang.SchedOp.Tag).
//
// The input is streamed: only the current line is held, and what the
// schedule keeps (about 50 bytes per operation) is checked against
// maxMemory (limits.Or) before it is allocated. Errors are collected (at
// most MaxErrors) as lang.Diagnostics with the line and a caret. When r
// tells its size (a Size() int64 method, as strings.Reader and
// bytes.Reader have), the schedule's arrays are sized from it at the
// start rather than grown by copying.
func ReadGOAL(r io.Reader, name string, maxMemory int64) (*lang.Schedule, error) {
	g := &goalReader{
		name:     name,
		max:      limits.Or(maxMemory),
		numRanks: -1,
		rank:     -1,
		lastRank: -1,
		labelIDs: map[string]int32{},
		s: &lang.Schedule{
			Name:     name,
			Src:      lang.NewSource(name, ""),
			DepStart: []int32{0},
		},
	}
	if sz, ok := r.(interface{ Size() int64 }); ok {
		g.presize(sz.Size())
	}
	g.lines = newLineReader(r)
	g.read()
	return g.finish()
}

// goalBytesPerOp is about the fewest bytes of text an operation of a
// schedgen schedule takes with its share of dependency lines ("l12: send
// 1b to 3 tag 0" and half a "l13 requires l12": 24 to 43 bytes an
// operation over its patterns), so that size / goalBytesPerOp operations
// are enough for most schedules of size bytes.
const goalBytesPerOp = 24

// presize gives the schedule's arrays the capacity a text of size bytes
// probably needs, in huge pages where the system has them, so that they
// are filled in place rather than copied at every growth (each copy
// faulting in fresh pages: a fifth of the reading time of a 16,384-rank
// dissemination). Capacity never touched costs no resident memory; a
// schedule denser than the estimate grows from it as before. Nothing is
// presized when the estimate would take more than three quarters of the
// memory limit: below that, presized arrays are what reading needs
// (they are never copied), where growing to the same size needs the old
// and the new array at once, a quarter larger.
func (g *goalReader) presize(size int64) {
	ops := size / goalBytesPerOp
	if ops < 1<<16 || ops >= math.MaxInt32/2 {
		return
	}
	deps := ops / 2
	need := limits.Add(limits.Mul(ops, schedOpBytes), limits.Mul(deps, schedDepBytes))
	if need > g.max/4*3 {
		return
	}
	s := g.s
	s.Ops = hugepages.Make[lang.SchedOp](0, int(ops))
	s.Deps = hugepages.Make[lang.SchedDep](0, int(deps))
	s.DepStart = append(hugepages.Make[int32](0, int(ops)+1), s.DepStart...)
}

type goalReader struct {
	name  string
	max   int64
	lines *lineReader
	s     *lang.Schedule
	errs  lang.Diagnostics
	stop  bool // a fatal error (memory, I/O, too many errors): read no further

	// the current line and the tokenizer's place in it
	line     []byte
	lineNo   int
	pos      int
	inCommnt bool
	errLine  int // the line of the latest error: one error per line

	numRanks     int
	numRanksLine int
	rank         int // the open rank block, -1 outside
	lastRank     int
	// skipBlock: the open block's rank header was in error; its statements
	// are skipped to its '}' rather than each reported as outside a rank.
	skipBlock bool
	rankFirst int32 // global index of the open rank's first operation

	labelIDs map[string]int32
	// labelByNum[n] is 1 + the id of label l<n> (schedgen's labels: l1,
	// l2, …; see labelNum), 0 for one not seen: found by number, not
	// hashed, where labelIDs holds the others.
	labelByNum []int32
	labelBytes int64
	// labelOp[id] is the global index of the operation labelled id in
	// rank labelRank[id]: stamping with the rank avoids clearing the table
	// between ranks.
	labelOp   []int32
	labelRank []int32
	labelPos  []int32 // the line that defined it, for duplicate reports

	// the open rank's dependencies, gathered as they come and sorted into
	// Deps when the rank closes
	deps []goalDep
	// lines kept for later diagnostics: dependencies on labels not yet
	// defined (only they can close a cycle, see checkCycles)
	kept      []keptLine
	keptBytes int64
	// unchecked counts the text (labels, kept lines) added since memory
	// was last checked
	unchecked int64
	// bigTags numbers the distinct tags above math.MaxInt32 in the order
	// they first appear: such an operation's Tag is -2 - that number
	// until finish renumbers them (renumberTags).
	bigTags map[int64]int32
	// scratch for closing a rank
	count []int32
	color []uint8
	stack []int32
	edge  []int32
}

// brokenOp stands for the operation of a label whose line had an error.
const brokenOp = -2

// A goalDep is "op requires target" (or irequires) in the open rank.
// Each side is a global operation index once resolved, a label id until
// then (a label defined further down the rank).
type goalDep struct {
	op, target       int32
	kept             int32 // index into kept, -1 if the line was not kept
	start            bool
	opRes, targetRes bool
}

// A keptLine is a dependency's line, kept for a report after the line is
// gone: its two labels' spans (byte offsets) and texts.
type keptLine struct {
	text   string
	line   int
	span   [2][2]int
	labels [2]string
}

func (g *goalReader) read() {
	for !g.stop {
		line, err := g.lines.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			g.lineNo = g.lines.n
			g.line = nil
			if errors.Is(err, errLongLine) {
				g.fatal(0, "line longer than %d bytes", MaxGOALLine)
			} else {
				g.fatal(0, "reading %s: %v", g.name, err)
			}
			break
		}
		g.line, g.lineNo, g.pos = line, g.lines.n, 0
		g.parseLine()
	}
	if g.stop {
		return
	}
	g.line, g.lineNo, g.pos = nil, g.lines.n, 0
	g.errLine = -1
	if g.rank >= 0 {
		g.errorAt(0, 0, "rank %d has no closing '}' at the end of the schedule", g.rank)
		g.closeRank()
	}
	if g.numRanks < 0 && len(g.errs) == 0 {
		g.errorAt(0, 0, "no num_ranks line: a GOAL schedule starts with num_ranks N")
	}
}

func (g *goalReader) finish() (*lang.Schedule, error) {
	if len(g.errs) > 0 {
		return nil, g.errs.Err()
	}
	s := g.s
	s.Ranks = g.numRanks
	for len(s.RankStart) < s.Ranks+1 {
		s.RankStart = append(s.RankStart, int32(len(s.Ops)))
	}
	// What presize gave beyond the schedule stays untouched, but for the
	// rest of the huge page holding the last operations (1.5 MB of a
	// 65,536-rank broadcast's 5.2 MB, sized for 9.4 MB).
	hugepages.Trim(s.Ops)
	hugepages.Trim(s.Deps)
	hugepages.Trim(s.DepStart)
	if len(g.bigTags) > 0 {
		need := limits.Add(g.bytes(), limits.Mul(int64(len(s.Ops)+len(g.bigTags)), 4))
		if err := limits.Check(fmt.Sprintf("renumbering the tags of %s (%d operations)", g.name, len(s.Ops)), need, g.max); err != nil {
			return nil, err
		}
		renumberTags(s.Ops, len(g.bigTags))
	}
	return s, nil
}

// bigTagBytes is what one distinct tag above math.MaxInt32 costs while
// reading: its map entry.
const bigTagBytes = 48

// renumberTags gives the big tags of ops (Tag -2 - i for the i-th
// distinct one, i < n) the smallest numbers ≥ 0 that no other tag of ops
// has: equal tags keep equal numbers and different ones different
// numbers, which is all matching compares (there are fewer tags than
// operations, so the numbers fit an int32).
func renumberTags(ops []lang.SchedOp, n int) {
	var used []int32
	for i := range ops {
		if k := ops[i].Kind; (k == lang.OpSend || k == lang.OpRecv) && ops[i].Tag >= 0 {
			used = append(used, ops[i].Tag)
		}
	}
	slices.Sort(used)
	used = slices.Compact(used)
	code := make([]int32, n)
	c, j := int32(0), 0
	for i := range code {
		for j < len(used) && used[j] < c {
			j++
		}
		for j < len(used) && used[j] == c {
			c++
			j++
		}
		code[i] = c
		c++
	}
	for i := range ops {
		if k := ops[i].Kind; (k == lang.OpSend || k == lang.OpRecv) && ops[i].Tag <= -2 {
			ops[i].Tag = code[-2-ops[i].Tag]
		}
	}
}

// Tokens of a GOAL line.
const (
	goalEOL   = iota // end of line or ';'
	goalIdent        // a word (keyword or label)
	goalInt          // digits, or -1
	goalColon
	goalOpen
	goalClose
	goalBad
)

// The one-byte tokens, and their kinds in the same order.
const goalPunct = ";:{}"

var goalPunctKind = [len(goalPunct)]int{goalEOL, goalColon, goalOpen, goalClose}

type gtok struct {
	kind int
	s, e int // byte offsets in the line
	neg  bool
}

func (g *goalReader) text(t gtok) string { return string(g.line[t.s:t.e]) }

func (g *goalReader) is(t gtok, word string) bool {
	return t.kind == goalIdent && string(g.line[t.s:t.e]) == word
}

// goalByte classes the bytes next scans: blanks between tokens, and
// digits and letters (with '_'), which continue a word.
var goalByte = func() (t [256]uint8) {
	for _, c := range []byte(" \t\r") {
		t[c] = goalSpaceByte
	}
	for c := range 256 {
		switch {
		case isDigit(byte(c)):
			t[c] = goalDigitByte
		case isLetter(byte(c)):
			t[c] = goalLetterByte
		}
	}
	return t
}()

const (
	goalSpaceByte = 1 + iota
	goalDigitByte
	goalLetterByte
)

func (g *goalReader) next() gtok {
	b := g.line
	for {
		if g.inCommnt {
			i := g.pos
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				i++
			}
			if i+1 >= len(b) {
				g.pos = len(b)
				return gtok{kind: goalEOL, s: len(b), e: len(b)}
			}
			g.pos, g.inCommnt = i+2, false
		}
		for g.pos < len(b) && goalByte[b[g.pos]] == goalSpaceByte {
			g.pos++
		}
		if g.pos+1 < len(b) && b[g.pos] == '/' && b[g.pos+1] == '/' {
			g.pos = len(b)
		}
		if g.pos+1 < len(b) && b[g.pos] == '/' && b[g.pos+1] == '*' {
			g.pos += 2
			g.inCommnt = true
			continue
		}
		break
	}
	s := g.pos
	if s >= len(b) {
		return gtok{kind: goalEOL, s: s, e: s}
	}
	c := b[s]
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		e := s + 1
		for e < len(b) && goalByte[b[e]] >= goalDigitByte {
			e++
		}
		g.pos = e
		return gtok{kind: goalIdent, s: s, e: e}
	case isDigit(c) || c == '-' && s+1 < len(b) && isDigit(b[s+1]):
		e := s + 1
		for e < len(b) && isDigit(b[e]) {
			e++
		}
		g.pos = e
		return gtok{kind: goalInt, s: s, e: e, neg: c == '-'}
	}
	if k := strings.IndexByte(goalPunct, c); k >= 0 {
		g.pos++
		return gtok{kind: goalPunctKind[k], s: s, e: s + 1}
	}
	_, w := utf8.DecodeRune(b[s:])
	g.pos = s + w
	return gtok{kind: goalBad, s: s, e: s + w}
}

// describe names a token for "unexpected ..." messages.
func (g *goalReader) describe(t gtok) string {
	switch t.kind {
	case goalEOL:
		if t.e > t.s {
			return "';'"
		}
		return "end of line"
	case goalOpen:
		return "'{'"
	case goalClose:
		return "'}'"
	}
	return strconv.Quote(lang.Excerpt(g.text(t)))
}

// errorAt reports an error spanning bytes [s, e) of the current line.
func (g *goalReader) errorAt(s, e int, format string, args ...any) {
	if g.lineNo == g.errLine && g.lineNo != 0 {
		return
	}
	g.errLine = g.lineNo
	if len(g.errs) >= MaxErrors {
		g.stop = true
		return
	}
	g.errs = append(g.errs, g.diag(string(g.line), g.lineNo, s, e, format, args...))
}

func (g *goalReader) diag(text string, line, s, e int, format string, args ...any) *lang.Diagnostic {
	src := lang.NewSourceLine(g.name, text, line)
	d := lang.Errorf(src.PosAt(s), format, args...)
	if e > s+1 {
		d.Span(src.PosAt(e))
	}
	return d
}

func (g *goalReader) unexpected(t gtok, expected string) {
	g.errorAt(t.s, t.e, "unexpected %s (expected %s)", g.describe(t), expected)
}

func (g *goalReader) fatal(s int, format string, args ...any) {
	g.errLine = 0
	g.errorAt(s, s, format, args...)
	g.stop = true
}

// parseLine reads the statements of one line.
func (g *goalReader) parseLine() {
	if !g.skipBlock && !g.inCommnt && (g.rank >= 0 && g.fastLine() || g.rank < 0 && g.fastRank()) {
		return
	}
	for !g.stop {
		t := g.next()
		if g.skipBlock {
			switch {
			case t.kind == goalEOL && t.e == t.s:
				return
			case t.kind == goalClose:
				g.skipBlock = false
			case g.is(t, "rank"):
				// Its '}' is missing: the next block is read again.
				g.skipBlock = false
				g.rankStmt(t)
			}
			continue
		}
		switch {
		case t.kind == goalEOL:
			if t.e == t.s {
				return
			}
			continue // ';'
		case t.kind == goalClose:
			if g.rank < 0 {
				g.errorAt(t.s, t.e, "'}' outside a rank block")
				return
			}
			g.closeRank()
			continue
		case g.is(t, "num_ranks"):
			g.numRanksStmt(t)
		case g.is(t, "rank"):
			g.rankStmt(t)
			continue // the block's first statement may follow '{'
		case g.is(t, "send"), g.is(t, "recv"), g.is(t, "calc"):
			g.opStmt(t, -1)
		case t.kind == goalIdent:
			g.labelled(t)
		default:
			g.unexpected(t, `"rank", "num_ranks", "send", "recv", "calc", a label or '}'`)
		}
		if g.errLine == g.lineNo {
			g.skip()
			return
		}
		g.endStmt()
	}
}

// endStmt expects the end of a statement: end of line, ';' or '}'.
func (g *goalReader) endStmt() {
	save := g.pos
	t := g.next()
	switch t.kind {
	case goalEOL:
		g.pos = save
		if t.e > t.s {
			g.pos = t.e
		}
	case goalClose:
		g.pos = save
	default:
		g.unexpected(t, "the end of the line")
		g.skip()
	}
}

// skip drops the rest of a line after an error, except a '}' that closes
// the rank, so that one bad statement does not misplace what follows.
func (g *goalReader) skip() {
	for {
		t := g.next()
		if t.kind == goalEOL && t.e == t.s {
			return
		}
		if t.kind == goalClose && g.rank >= 0 {
			g.closeRank()
		}
	}
}

// integer reads an integer token; it reports an error and returns false
// when the token is not one (what names what was expected).
func (g *goalReader) integer(what string, allowAny bool) (int64, gtok, bool) {
	t := g.next()
	if t.kind != goalInt {
		g.unexpected(t, what)
		return 0, t, false
	}
	if t.neg {
		if allowAny && t.e-t.s == 2 && g.line[t.s+1] == '1' {
			return -1, t, true
		}
		g.errorAt(t.s, t.e, "%s cannot be negative%s", what, map[bool]string{true: " (only -1, any, is allowed)", false: ""}[allowAny])
		return 0, t, false
	}
	var n uint64
	if t.e-t.s <= 18 { // below 10^18: no overflow to check
		for _, c := range g.line[t.s:t.e] {
			n = n*10 + uint64(c-'0')
		}
		return int64(n), t, true
	}
	for _, c := range g.line[t.s:t.e] {
		d := uint64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			g.errorAt(t.s, t.e, "%s %s is too large (the largest is %d)", what, lang.Excerpt(g.text(t)), int64(math.MaxInt64))
			return 0, t, false
		}
		n = n*10 + d
	}
	return int64(n), t, true
}

func (g *goalReader) numRanksStmt(kw gtok) {
	if g.numRanks >= 0 {
		g.errorAt(kw.s, kw.e, "num_ranks given twice (first at line %d)", g.numRanksLine)
		return
	}
	if g.lastRank >= 0 || g.rank >= 0 {
		g.errorAt(kw.s, kw.e, "num_ranks must come before the first rank block")
		return
	}
	n, t, ok := g.integer("a number of ranks", false)
	if !ok {
		return
	}
	if n < 1 || n > lang.MaxRanks {
		g.errorAt(t.s, t.e, "num_ranks %d is out of range (1 to %d, the most ranks a schedule can have)", n, lang.MaxRanks)
		return
	}
	if err := limits.Check(fmt.Sprintf("a schedule of %d ranks", n), limits.Mul(n+1, 4), g.max); err != nil {
		g.fatal(t.s, "%v", err)
		return
	}
	g.numRanks, g.numRanksLine = int(n), g.lineNo
	g.s.RankStart = make([]int32, 0, n+1)
}

func (g *goalReader) rankStmt(kw gtok) {
	if g.numRanks < 0 {
		// Nothing after it can be checked.
		g.fatal(kw.s, "rank block before num_ranks: a GOAL schedule starts with num_ranks N")
		return
	}
	r, t, ok := g.integer("a rank number", false)
	if !ok {
		return
	}
	if g.rank >= 0 {
		g.errorAt(kw.s, kw.e, "rank %d starts inside rank %d, whose '}' is missing", r, g.rank)
		g.closeRank()
	}
	bad := true
	switch {
	case r >= int64(g.numRanks):
		g.errorAt(t.s, t.e, "rank %d is out of range: num_ranks is %d (line %d), so ranks are 0 to %d", r, g.numRanks, g.numRanksLine, g.numRanks-1)
	case r == int64(g.lastRank):
		g.errorAt(t.s, t.e, "rank %d appears twice", r)
	case r < int64(g.lastRank):
		g.errorAt(t.s, t.e, "rank %d comes after rank %d: ranks must appear in increasing order", r, g.lastRank)
	default:
		bad = false
	}
	if bad {
		save := g.pos
		if o := g.next(); o.kind == goalOpen {
			g.skipBlock = true
		} else {
			g.pos = save
		}
		return
	}
	if o := g.next(); o.kind != goalOpen {
		g.unexpected(o, "'{'")
		return
	}
	g.openRank(int(r))
}

// openRank opens the block of rank r, which comes after the last.
func (g *goalReader) openRank(r int) {
	for len(g.s.RankStart) <= r {
		g.s.RankStart = append(g.s.RankStart, int32(len(g.s.Ops)))
	}
	g.rank, g.lastRank = r, r
	g.rankFirst = int32(len(g.s.Ops))
}

// labelled reads a statement that starts with a label: an operation
// ("l1: send …") or a dependency ("l2 requires l1").
func (g *goalReader) labelled(label gtok) {
	t := g.next()
	switch {
	case t.kind == goalColon:
		op := g.next()
		if !g.is(op, "send") && !g.is(op, "recv") && !g.is(op, "calc") {
			g.unexpected(op, `"send", "recv" or "calc"`)
			return
		}
		id := g.labelID(label)
		g.opStmt(op, id)
		g.brokenLabel(id)
	case g.is(t, "requires"), g.is(t, "irequires"):
		g.depStmt(label, g.is(t, "irequires"))
	default:
		g.unexpected(t, `':', "requires" or "irequires"`)
	}
}

// brokenLabel marks label id, when its operation's line had an error, as
// defined by a broken line: dependencies on it are dropped rather than
// reported as undefined as well.
func (g *goalReader) brokenLabel(id int32) {
	if g.errLine == g.lineNo && id >= 0 && g.labelRank[id] != int32(g.rank) && g.rank >= 0 {
		g.labelRank[id], g.labelOp[id], g.labelPos[id] = int32(g.rank), brokenOp, int32(g.lineNo)
	}
}

func (g *goalReader) inRank(t gtok) bool {
	if g.rank < 0 {
		g.errorAt(t.s, t.e, "%s outside a rank block: put it inside rank N { … }", g.text(t))
		return false
	}
	return true
}

// labelID interns a label's text.
func (g *goalReader) labelID(t gtok) int32 {
	n, byNum := labelNum(g.line[t.s:t.e])
	if byNum {
		if n < len(g.labelByNum) && g.labelByNum[n] > 0 {
			return g.labelByNum[n] - 1
		}
	} else if id, ok := g.labelIDs[string(g.line[t.s:t.e])]; ok {
		return id
	}
	if len(g.s.Labels) >= math.MaxInt32 {
		g.fatal(t.s, "more than %d distinct labels", math.MaxInt32)
		return -1
	}
	text := g.text(t)
	g.labelBytes += int64(len(text)) + labelFixedBytes
	g.unchecked += int64(len(text)) + labelFixedBytes
	if !g.room("labels", len(g.s.Labels) == cap(g.s.Labels)) {
		return -1
	}
	id := int32(len(g.s.Labels))
	if byNum {
		if n >= len(g.labelByNum) {
			g.labelByNum = append(g.labelByNum, make([]int32, n+1-len(g.labelByNum))...)
		}
		g.labelByNum[n] = id + 1
	} else {
		g.labelIDs[text] = id
	}
	g.s.Labels = append(g.s.Labels, text)
	g.labelOp = append(g.labelOp, -1)
	g.labelRank = append(g.labelRank, -1)
	g.labelPos = append(g.labelPos, 0)
	return id
}

func (g *goalReader) opStmt(kw gtok, label int32) {
	if !g.inRank(kw) || g.stop {
		return
	}
	op := lang.SchedOp{Label: -1, Line: int32(min(g.lineNo, math.MaxInt32))}
	switch {
	case g.is(kw, "calc"):
		op.Kind = lang.OpCalc
		ns, _, ok := g.integer("a time in nanoseconds", false)
		if !ok {
			return
		}
		op.Time = float64(ns) / 1e9
	default: // send or recv
		op.Kind = lang.OpSend
		dir, what := "to", "a destination rank"
		if g.is(kw, "recv") {
			op.Kind = lang.OpRecv
			dir, what = "from", "a source rank or -1 (any)"
		}
		n, _, ok := g.integer("a size in bytes", false)
		if !ok {
			return
		}
		op.Bytes = n
		if b := g.next(); !g.is(b, "b") {
			g.unexpected(b, `"b" after the size (GOAL sizes are bytes: 8b)`)
			return
		}
		if d := g.next(); !g.is(d, dir) {
			g.unexpected(d, strconv.Quote(dir))
			return
		}
		peer, pt, ok := g.integer(what, op.Kind == lang.OpRecv)
		if !ok {
			return
		}
		if peer >= int64(g.numRanks) {
			g.errorAt(pt.s, pt.e, "rank %d is out of range: num_ranks is %d, so ranks are 0 to %d", peer, g.numRanks, g.numRanks-1)
			return
		}
		op.Peer = int32(peer)
	}
	// Optional suffixes, in txt2bin's order: tag (not for calc), cpu, nic.
	for stage := 0; ; {
		save := g.pos
		t := g.next()
		switch {
		case stage == 0 && op.Kind != lang.OpCalc && g.is(t, "tag"):
			tag, tt, ok := g.integer("a tag", op.Kind == lang.OpRecv)
			if !ok {
				return
			}
			if tag > math.MaxInt32 {
				// A tag beyond an int32 (LogGOPSim takes them) is numbered
				// apart and renumbered at the end, so that an operation
				// stays 40 bytes.
				if g.bigTags == nil {
					g.bigTags = map[int64]int32{}
				}
				id, ok := g.bigTags[tag]
				if !ok {
					if len(g.bigTags) >= math.MaxInt32/2 {
						g.fatal(tt.s, "more than %d distinct tags above %d", math.MaxInt32/2, math.MaxInt32)
						return
					}
					id = int32(len(g.bigTags))
					g.bigTags[tag] = id
					g.unchecked += bigTagBytes
					if !g.room("tags", false) {
						return
					}
				}
				op.Tag, stage = -2-id, 1
				continue
			}
			op.Tag, stage = int32(tag), 1
			continue
		case stage <= 1 && g.is(t, "cpu"), stage <= 2 && g.is(t, "nic"):
			which := "cpu"
			if !g.is(t, "cpu") {
				which = "nic"
			}
			n, nt, ok := g.integer("a "+which+" number", false)
			if !ok {
				return
			}
			if n > math.MaxUint8 {
				g.errorAt(nt.s, nt.e, "%s %d is out of range (0 to 255)", which, n)
				return
			}
			if which == "cpu" {
				op.CPU, stage = uint8(n), 2
			} else {
				op.NIC, stage = uint8(n), 3
			}
			continue
		}
		g.pos = save
		break
	}
	g.addOp(kw, op, label)
}

// addOp stores an operation read from the line of its keyword kw,
// labelled label (-1: none).
func (g *goalReader) addOp(kw gtok, op lang.SchedOp, label int32) {
	if label >= 0 {
		if g.labelRank[label] == int32(g.rank) {
			g.errorAt(kw.s, kw.e, "label %s is defined twice in rank %d (first at line %d)", lang.Excerpt(g.s.Labels[label]), g.rank, g.labelPos[label])
			return
		}
		g.labelRank[label], g.labelOp[label] = int32(g.rank), int32(len(g.s.Ops))
		g.labelPos[label] = op.Line
		op.Label = label
	}
	if len(g.s.Ops) >= math.MaxInt32-1 {
		g.fatal(kw.s, "more than %d operations", math.MaxInt32-1)
		return
	}
	if !g.room("operations", len(g.s.Ops) == cap(g.s.Ops)) {
		return
	}
	g.s.Ops = append(g.s.Ops, op)
}

func (g *goalReader) depStmt(label gtok, start bool) {
	if !g.inRank(label) {
		return
	}
	target := g.next()
	if target.kind != goalIdent {
		g.unexpected(target, "a label")
		return
	}
	g.addDep(label, target, start)
}

// addDep stores "label requires target" (irequires when start) of the
// current line.
func (g *goalReader) addDep(label, target gtok, start bool) {
	d := goalDep{kept: -1, start: start}
	sides := [2]gtok{label, target}
	var at [2]int32
	var res [2]bool
	for i, t := range sides {
		if at[i], res[i] = g.lookup(t); !res[i] {
			if at[i] = g.labelID(t); at[i] < 0 {
				return
			}
		}
	}
	if at[0] == brokenOp || at[1] == brokenOp {
		return
	}
	d.op, d.target, d.opRes, d.targetRes = at[0], at[1], res[0], res[1]
	if d.opRes && d.targetRes && d.op == d.target {
		g.errorAt(label.s, target.e, "%s depends on itself", g.text(label))
		return
	}
	if !d.opRes || !d.targetRes || d.target > d.op {
		// Only a dependency on a later operation can close a cycle, and
		// an undefined label is reported when the rank closes: keep the
		// line for those reports (schedgen writes neither).
		k := keptLine{text: string(g.line), line: g.lineNo}
		for i, t := range sides {
			k.span[i] = [2]int{t.s, t.e}
			k.labels[i] = g.text(t)
		}
		g.keptBytes += int64(len(k.text)+len(k.labels[0])+len(k.labels[1])) + 96
		g.unchecked += int64(len(k.text)+len(k.labels[0])+len(k.labels[1])) + 96
		if !g.room("dependency lines", len(g.kept) == cap(g.kept)) {
			return
		}
		d.kept = int32(len(g.kept))
		g.kept = append(g.kept, k)
	}
	if !g.room("dependencies", len(g.deps) == cap(g.deps)) {
		return
	}
	g.deps = append(g.deps, d)
}

// lookup finds the operation a label names in the open rank.
func (g *goalReader) lookup(t gtok) (int32, bool) {
	var id int32
	var ok bool
	if n, byNum := labelNum(g.line[t.s:t.e]); byNum {
		ok = n < len(g.labelByNum) && g.labelByNum[n] > 0
		if ok {
			id = g.labelByNum[n] - 1
		}
	} else {
		id, ok = g.labelIDs[string(g.line[t.s:t.e])]
	}
	if !ok || g.labelRank[id] != int32(g.rank) {
		return 0, false
	}
	return g.labelOp[id], true
}

// maxLabelNum bounds the labels found by number: labelByNum holds at most
// 4 × maxLabelNum bytes.
const maxLabelNum = 1 << 16

// labelNum is the number of a label written l<digits> with no leading
// zero and below maxLabelNum (as schedgen writes every label), which
// labelByNum finds; ok is false for any other label.
func labelNum(b []byte) (n int, ok bool) {
	if len(b) < 2 || len(b) > 6 || b[0] != 'l' || b[1] == '0' && len(b) > 2 {
		return 0, false
	}
	for _, c := range b[1:] {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n < maxLabelNum
}

// bytes estimates what the reader holds: the schedule's slices at their
// capacity, the labels, and the open rank's scratch.
func (g *goalReader) bytes() int64 {
	s := g.s
	return limits.Add(
		limits.Mul(int64(cap(s.Ops)), schedOpBytes),
		limits.Mul(int64(cap(s.Deps)), schedDepBytes),
		limits.Mul(int64(cap(s.RankStart)), 4),
		limits.Mul(int64(cap(g.deps)), int64(unsafe.Sizeof(goalDep{}))),
		limits.Mul(int64(cap(g.count)+cap(g.stack)+cap(g.edge)+cap(g.labelByNum)), 4),
		int64(cap(g.color)),
		g.labelBytes, g.keptBytes,
		limits.Mul(int64(len(g.bigTags)), bigTagBytes),
	)
}

// room checks, before a slice of the schedule grows (grows says the
// caller's append will), that the reader's memory after the growth (old
// and new arrays both alive while copying) stays within the limit; and
// after every megabyte of label text.
func (g *goalReader) room(what string, grows bool) bool {
	if !grows && g.unchecked < 1<<20 {
		return true
	}
	g.unchecked = 0
	need := g.bytes()
	if len(g.s.Ops) == cap(g.s.Ops) {
		need = limits.Add(need, limits.Mul(int64(cap(g.s.Ops)+cap(g.s.Ops)/4+1024), schedOpBytes))
	}
	if len(g.deps) == cap(g.deps) {
		need = limits.Add(need, limits.Mul(int64(cap(g.deps)+1024), int64(unsafe.Sizeof(goalDep{}))))
	}
	if need > g.max {
		g.fatal(0, "%v", limits.Check(fmt.Sprintf("this schedule (%d operations so far, its %s)", len(g.s.Ops), what), need, g.max))
		return false
	}
	return true
}

// closeRank resolves the open rank's dependencies, checks them for cycles
// and stores them (sorted by operation) in Deps.
func (g *goalReader) closeRank() {
	first, end := g.rankFirst, int32(len(g.s.Ops))
	n := int(end - first)
	for i := range g.deps {
		g.resolve(&g.deps[i])
	}
	// Sort the dependencies by operation (a counting sort: the count
	// scratch is per rank and reused).
	g.count = grow32(g.count, n+1)
	for _, d := range g.deps {
		if d.opRes && d.targetRes {
			g.count[d.op-first+1]++
		}
	}
	for i := 1; i <= n; i++ {
		g.count[i] += g.count[i-1]
	}
	base := int32(len(g.s.Deps))
	total := int(g.count[n])
	need := limits.Add(g.bytes(), limits.Mul(int64(len(g.s.Deps)+total), schedDepBytes), limits.Mul(int64(n+total), 8))
	if need > g.max || need < 0 {
		// Worded only when refused: a rank's close is hot (65,536 of them
		// in a broadcast), a message each was a tenth of its reading.
		g.fatal(0, "%v", limits.Check(fmt.Sprintf("this schedule (%d operations so far, its dependencies)", len(g.s.Ops)), need, g.max))
	}
	if !g.stop {
		// Every new entry is written below.
		g.s.Deps = slices.Grow(g.s.Deps, total)[:len(g.s.Deps)+total]
		g.edge = grow32(g.edge, total) // the kept line of each sorted edge
		fill := append(g.stack[:0], g.count[:n]...)
		for _, d := range g.deps {
			if !d.opRes || !d.targetRes {
				continue
			}
			at := fill[d.op-first]
			fill[d.op-first]++
			g.s.Deps[int(base)+int(at)] = lang.SchedDep{Op: d.target, Start: d.start}
			g.edge[at] = d.kept
		}
		g.stack = fill[:0]
		for i := 1; i <= n; i++ {
			g.s.DepStart = append(g.s.DepStart, base+g.count[i])
		}
		if len(g.kept) > 0 {
			// Only a dependency on a later operation can close a cycle,
			// and each has its line kept: a rank with none (schedgen's
			// every rank) has no cycle to look for.
			g.checkCycles(first, n, base)
		}
	}
	g.deps = g.deps[:0]
	g.kept, g.keptBytes = g.kept[:0], 0
	g.rank = -1
}

// resolve looks up, when the rank closes, the labels a dependency named
// before they were defined, and reports those never defined.
func (g *goalReader) resolve(d *goalDep) {
	if d.opRes && d.targetRes {
		return
	}
	k := g.kept[d.kept]
	sides := [2]*int32{&d.op, &d.target}
	done := [2]*bool{&d.opRes, &d.targetRes}
	for i := range sides {
		if *done[i] {
			continue
		}
		id := *sides[i]
		if g.labelRank[id] != int32(g.rank) {
			g.addErr(g.diag(k.text, k.line, k.span[i][0], k.span[i][1], "undefined label %s in rank %d", lang.Excerpt(k.labels[i]), g.rank))
			d.opRes = false
			return
		}
		if g.labelOp[id] == brokenOp {
			d.opRes = false
			return
		}
		*sides[i], *done[i] = g.labelOp[id], true
	}
	if d.op == d.target {
		g.addErr(g.diag(k.text, k.line, k.span[0][0], k.span[1][1], "%s depends on itself", lang.Excerpt(k.labels[0])))
		d.opRes = false
	}
}

func (g *goalReader) addErr(d *lang.Diagnostic) {
	if len(g.errs) < MaxErrors {
		g.errs = append(g.errs, d)
	}
}

func grow32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// checkCycles finds a cycle among the rank's dependencies by depth-first
// search (iterative: a chain of ten million operations must not exhaust
// the stack) and reports it at the dependency that points forward, the
// one whose line was kept.
func (g *goalReader) checkCycles(first int32, n int, base int32) {
	if cap(g.color) < n {
		g.color = make([]uint8, n)
	}
	color := g.color[:n]
	clear(color)
	s := g.s
	// stack holds pairs (local operation, next dependency to visit).
	stack := g.stack[:0]
	for root := 0; root < n; root++ {
		if color[root] != 0 {
			continue
		}
		color[root] = 1
		stack = append(stack[:0], int32(root), s.DepStart[first+int32(root)])
		for len(stack) > 0 {
			v := stack[len(stack)-2]
			e := stack[len(stack)-1]
			if e == s.DepStart[first+v+1] {
				color[v] = 2
				stack = stack[:len(stack)-2]
				continue
			}
			stack[len(stack)-1]++
			w := s.Deps[e].Op - first
			switch color[w] {
			case 0:
				color[w] = 1
				stack = append(stack, w, s.DepStart[first+w])
			case 1:
				g.reportCycle(first, base, stack, w)
				g.stack = stack[:0]
				return
			}
		}
	}
	g.stack = stack[:0]
}

func (g *goalReader) reportCycle(first, base int32, stack []int32, w int32) {
	s := g.s
	// The cycle is the stack from w to its top; each pair's edge is the
	// one just taken (its index is the stored next minus one).
	i := 0
	for stack[i] != w {
		i += 2
	}
	var names []string
	kept := int32(-1)
	for j := i; j < len(stack); j += 2 {
		names = append(names, s.LabelOf(int(first+stack[j])))
		if k := g.edge[stack[j+1]-1-base]; k >= 0 && kept < 0 {
			kept = k
		}
	}
	names = append(names, s.LabelOf(int(first+w)))
	msg := fmt.Sprintf("dependency cycle in rank %d: %s", g.rank, joinArrow(names))
	if kept >= 0 {
		k := g.kept[kept]
		g.addErr(g.diag(k.text, k.line, k.span[1][0], k.span[1][1], "%s", msg))
		return
	}
	g.addErr(g.diag(string(g.line), g.lineNo, 0, 0, "%s", msg))
}

func joinArrow(names []string) string {
	const most = 12
	if len(names) > most {
		names = append(append(names[:most/2:most/2], "…"), names[len(names)-most/2:]...)
	}
	return strings.Join(names, " requires ")
}

// A lineReader yields the lines of a stream one at a time, without their
// line ends, holding at most one line (up to MaxGOALLine) in memory. It
// scans its own buffer for line ends, where bufio's ReadSlice and the
// calls around it took 150 instructions a line (a schedgen line is about
// 25 bytes).
type lineReader struct {
	r          io.Reader
	buf        []byte // buf[start:end] is read and not yet returned
	start, end int
	seen       int    // buf[start:start+seen] has no '\n'
	err        error  // the reader's error once it gave one (io.EOF at the end)
	long       []byte // a line longer than buf, gathered
	n          int    // the number of the line last returned
}

var errLongLine = errors.New("line too long")

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: r, buf: make([]byte, 64<<10)}
}

// maxEmptyReads is how many reads in a row may give nothing before the
// stream is taken to be stuck (bufio's io.ErrNoProgress).
const maxEmptyReads = 100

func (l *lineReader) next() ([]byte, error) {
	l.long = l.long[:0]
	for empty := 0; ; {
		if i := bytes.IndexByte(l.buf[l.start+l.seen:l.end], '\n'); i >= 0 {
			line := l.buf[l.start : l.start+l.seen+i]
			l.start += l.seen + i + 1
			l.seen = 0
			if len(l.long) > 0 {
				l.long = append(l.long, line...)
				line = l.long
			}
			l.n++
			if len(line) >= MaxGOALLine { // with its '\n', more than MaxGOALLine
				return nil, errLongLine
			}
			return line, nil
		}
		l.seen = l.end - l.start
		if l.err != nil {
			// The last line, without a line end; or the reader failed.
			line := l.buf[l.start:l.end]
			l.start, l.seen = l.end, 0
			if len(l.long) > 0 {
				l.long = append(l.long, line...)
				line = l.long
			}
			if l.err != io.EOF {
				return nil, l.err
			}
			if len(line) == 0 {
				return nil, io.EOF
			}
			l.n++
			if len(line) > MaxGOALLine {
				return nil, errLongLine
			}
			return line, nil
		}
		if l.start == 0 && l.end == len(l.buf) {
			// A line longer than the buffer.
			l.long = append(l.long, l.buf...)
			l.end, l.seen = 0, 0
			if len(l.long) > MaxGOALLine {
				l.n++
				return nil, errLongLine
			}
		} else if l.start > 0 {
			l.end = copy(l.buf, l.buf[l.start:l.end])
			l.start = 0
		}
		n, err := l.r.Read(l.buf[l.end:])
		l.end += n
		switch {
		case err != nil:
			l.err = err
		case n > 0:
			empty = 0
		default:
			if empty++; empty >= maxEmptyReads {
				l.err = io.ErrNoProgress
			}
		}
	}
}
