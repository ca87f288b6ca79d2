package parser

import (
	"math"
	"math/bits"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/parasol-lang/parasol/internal/slab"
	"github.com/parasol-lang/parasol/internal/swar"
	"github.com/parasol-lang/parasol/lang"
)

// The Parasol I format (seed 002 §2.3) is line oriented: `key = value`
// lines, `#` comments, and section headers that are either a bare word or a
// header key (`machinename`, `processor`, `topology`, `linknumber`,
// `modelsection`). Keys may contain spaces. Values are parsed with the
// modern expression grammar, so model sections may hold expressions with
// references; plain numbers take a fast path because files with many links
// are mostly numbers.

// subsections are the bare-word headers inside a processor.
var subsections = map[string]bool{
	"integer_timings": true, "long_integer_timings": true, "float_timings": true,
	"double_timings": true, "processorcache": true, "combinations": true,
}

var legacyFunc = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]*)\)$`) })

type legacyReader struct {
	src  *lang.Source
	file *lang.File
	errs lang.Diagnostics
	a    arena

	// The line being read, for positions without a search.
	lineNo, lineStart int
	ascii             bool

	mach *lang.Machine
	proc *lang.Block // current processor, for its subsections
	topo *lang.Block // current topology, for its links
	into *[]lang.Stmt
	// The current section's fields, not yet in *into, are the end of the
	// arena's statement slab from curStart on: flushed, they are in place.
	curStart int
	where    string // what the current section is, for messages

	// The current link block's nodes, when held in one piece (linkNodes):
	// its first fields are in link.body, its first plain numbers in
	// link.lines. Whether the next link block is given a piece depends on
	// whether the last one had the plain numbers to fill most of one.
	link                   *linkNodes
	posSrc                 *lang.Source // what positions point at: src, or link's chunk's copy of it
	linkStmts, linkNumbers int          // used of link.body; plain numbers in the block
	linkPiece              bool
}

func parseLegacy(src *lang.Source) (*lang.File, error) { return readLegacy(src, false) }

// readLegacy reads a Parasol I file; general has every line read by line,
// plain ones too, for tests that compare the two ways.
func readLegacy(src *lang.Source, general bool) (*lang.File, error) {
	text := src.Text
	r := &legacyReader{src: src, posSrc: src, file: &lang.File{Src: src, Legacy: true}, ascii: src.ASCII(), linkPiece: true}
	for off := 0; off < len(text); {
		r.lineNo++
		r.lineStart = off
		if !general {
			if end, ok := r.numberLine(text, off); ok {
				off = end + 1
				continue
			}
		}
		end, eq, plain := scanLine(text, off)
		// Text that is not text is refused with one error and nothing
		// else, as ParseFile refuses it for the modern syntax; a plain
		// line is printable ASCII, so only the others need the check,
		// and the first bad byte of the file is on the first such line.
		if !plain {
			if d := checkTextIn(src, off, end); d != nil {
				return nil, d
			}
		}
		if general || !plain || !r.plainLine(off, text[off:end], eq-off) {
			r.line(off, text[off:end])
		}
		off = end + 1
	}
	r.flush()
	if r.mach == nil && len(r.errs) == 0 {
		r.errs.Add(src.PosAt(0), `expected a machine header: machinename = "NAME"`)
	}
	return r.file, r.errs.Err()
}

// flush ends the current section: its fields join its body, as the slice
// of the arena they were written to when the body is still empty (as it
// mostly is).
func (r *legacyReader) flush() {
	n := len(r.a.stmts)
	cur := r.a.stmts[r.curStart:n:n]
	r.curStart = n
	if r.where == "link" {
		if r.link != nil {
			cur = r.link.body[:r.linkStmts:r.linkStmts]
		}
		r.linkPiece = r.linkNumbers >= minLinkLines
		r.link, r.linkStmts, r.linkNumbers, r.posSrc = nil, 0, 0, r.src
	}
	if len(cur) == 0 {
		return
	}
	if len(*r.into) == 0 {
		*r.into = cur
	} else {
		*r.into = append(*r.into, cur...)
	}
}

// addField adds a field to the current section, at the end of the arena's
// statement slab. A full slab is replaced by one with room for the section
// so far (moved there) and more, so that a section is one slice.
func (r *legacyReader) addField(f *lang.Field) {
	if r.link != nil {
		if r.linkStmts < len(r.link.body) {
			r.link.body[r.linkStmts] = f
			r.linkStmts++
			return
		}
		// A longer block than its piece holds goes on in the slab.
		for _, s := range r.link.body {
			r.addStmt(s)
		}
		r.link = nil
	}
	r.addStmt(f)
}

// addStmt adds a statement to the current section in the arena's slab.
func (r *legacyReader) addStmt(f lang.Stmt) {
	if len(r.a.stmts) == cap(r.a.stmts) {
		cur := r.a.stmts[r.curStart:]
		s := make([]lang.Stmt, len(cur), max(2*len(cur), min(max(2*cap(r.a.stmts), 16), stmtSlab)))
		copy(s, cur)
		r.a.stmts, r.curStart = s, 0
	}
	r.a.stmts = append(r.a.stmts, f)
}

// scanLine finds the end of the line that starts at off (its newline or the
// end of text) and its first '=' (-1 when none). The line is plain when it
// holds only printable ASCII, blanks and at most a carriage return before
// its newline, and no comment or string: then plainLine can split it
// without the general reader's trimming and searching.
//
// It reads eight bytes at a time and looks only at those that may matter:
// most of a line is letters, digits and spaces.
func scanLine(text string, off int) (end, eq int, plain bool) {
	eq, plain = -1, true
	i := off
	for ; i+8 <= len(text); i += 8 {
		for m := notable(swar.Load8(text, i)); m != 0; m &= m - 1 {
			j := i + bits.TrailingZeros64(m)>>3
			if scanByte(text, j, &eq, &plain) {
				return j, eq, plain
			}
		}
	}
	for ; i < len(text); i++ {
		if scanByte(text, i, &eq, &plain) {
			return i, eq, plain
		}
	}
	return len(text), eq, plain
}

// scanByte is scanLine's look at the byte at j: true at a newline.
func scanByte(text string, j int, eq *int, plain *bool) bool {
	switch lineClass[text[j]] {
	case lcNewline:
		return true
	case lcEquals:
		if *eq < 0 {
			*eq = j
		}
	case lcReturn:
		*plain = *plain && (j+1 == len(text) || text[j+1] == '\n')
	case lcOther:
		*plain = false
	}
	return false
}

// notable has the high bit of each byte of w set that scanLine must look
// at (and maybe of a few more above one): control bytes (a newline, a tab),
// '=', a quote, '#', '\\', and what is not printable ASCII. Each test is
// the classic one for a byte below n, (x - n) &^ x, whose lowest flag is
// always right; it may flag a byte above a flagged one, never without it.
func notable(w uint64) uint64 {
	eq := w ^ ('=' * swar.Low)
	qh := w ^ ('"' * swar.Low) // '"' and '#' become 0 and 1
	bs := w ^ ('\\' * swar.Low)
	return (w | (w + swar.Low) | // 0x7f and above
		((w - 0x20*swar.Low) &^ w) | // control bytes
		((eq - swar.Low) &^ eq) | ((qh - 2*swar.Low) &^ qh) | ((bs - swar.Low) &^ bs)) & swar.High
}

// Classes of bytes for scanLine.
const (
	lcPlain   = iota // printable ASCII other than those below, and tabs
	lcNewline        // '\n'
	lcEquals         // '='
	lcReturn         // '\r', plain only before a newline
	lcOther          // comments, strings, other control bytes, non-ASCII
)

var lineClass = func() (c [256]uint8) {
	for i := range c {
		if i < ' ' || i >= 0x7f {
			c[i] = lcOther
		}
	}
	c['\t'], c['\n'], c['='], c['\r'] = lcPlain, lcNewline, lcEquals, lcReturn
	c['#'], c['"'], c['\\'] = lcOther, lcOther, lcOther
	return c
}()

// plainLine reads a line scanLine found plain, whose first '=' is at eq (a
// byte of line, or -1), as line does: it trims blanks where line trims
// white space, which in such a line are the same bytes. It returns false,
// having done nothing, for what it leaves to line: a header, or a line
// without a key or a value (an error).
func (r *legacyReader) plainLine(off int, line string, eq int) bool {
	// Most lines are `key = value`, a space either side of the '=' and
	// none around: their parts are known without the loops below.
	if eq >= 2 && eq+2 < len(line) && line[eq-1] == ' ' && line[eq+1] == ' ' &&
		!isBlank(line[0]) && !isBlank(line[eq-2]) && !isBlank(line[eq+2]) && !isBlank(line[len(line)-1]) {
		r.entry(r.pos(off), line[:eq-1], line[eq+2:], off+eq+2)
		return true
	}
	lead := 0
	for lead < len(line) && isBlank(line[lead]) {
		lead++
	}
	if lead == len(line) {
		return true // blank
	}
	if eq < 0 {
		return false
	}
	end := len(line)
	for isBlank(line[end-1]) { // stops at the '=', if not before
		end--
	}
	k := eq
	for k > lead && isBlank(line[k-1]) {
		k--
	}
	v := eq + 1
	for v < end && isBlank(line[v]) {
		v++
	}
	if k == lead || v == end {
		return false
	}
	r.entry(r.pos(off+lead), line[lead:k], line[v:end], off+v)
	return true
}

// isBlank is true of a space, a tab or a carriage return: in a plain line,
// the only bytes up to a space.
func isBlank(c byte) bool { return c <= ' ' }

// pos is the position of byte offset off of the current line.
func (r *legacyReader) pos(off int) lang.Pos {
	col := 1 + off - r.lineStart
	if !r.ascii {
		col = 1 + utf8.RuneCountInString(r.src.Text[r.lineStart:off])
	}
	return lang.Pos{Src: r.posSrc, Offset: off, Line: r.lineNo, Col: col}
}

func (r *legacyReader) line(off int, line string) {
	if c := commentStart(line); c >= 0 {
		r.file.Comments = append(r.file.Comments, &lang.Comment{Pos: r.pos(off + c), Text: "#" + strings.TrimRight(strings.TrimLeft(line[c:], `\#`), " \t\r")})
		line = line[:c]
	}
	trimmed := strings.TrimSpace(line)
	if trimmed == "" {
		return
	}
	lead := strings.Index(line, trimmed)
	pos := r.pos(off + lead)
	eq := strings.IndexByte(trimmed, '=')
	if eq < 0 {
		r.flush()
		r.header(pos, trimmed)
		return
	}
	key := strings.TrimSpace(trimmed[:eq])
	rawValue := trimmed[eq+1:]
	value := strings.TrimSpace(rawValue)
	blanks := 0 // before the value: strings.TrimLeft would build its set of two bytes per line
	for blanks < len(rawValue) && (rawValue[blanks] == ' ' || rawValue[blanks] == '\t') {
		blanks++
	}
	valueOff := off + lead + eq + 1 + blanks
	if key == "" {
		r.errs.Add(pos, "expected a key before '='")
		return
	}
	if value == "" {
		r.errs.Add(r.pos(valueOff), "expected a value after %q", key+" =")
		return
	}
	r.entry(pos, key, value, valueOff)
}

// entry reads a line's key and value, found at pos and valueOff, both
// trimmed and not empty.
func (r *legacyReader) entry(pos lang.Pos, key, value string, valueOff int) {
	switch key {
	case "machinename":
		r.flush()
		r.mach = &lang.Machine{Pos: pos, Name: unquoteName(value)}
		r.file.Stmts = append(r.file.Stmts, r.mach)
		r.proc, r.topo, r.into, r.where = nil, nil, &r.mach.Body, "machine"
		return
	case "processor", "topology", "modelsection":
		r.flush()
		if !r.needMachine(pos, key) {
			return
		}
		if key != "modelsection" && !r.headerNumber(key, value, valueOff) {
			return
		}
		b := &lang.Block{Pos: pos, Kind: key, Label: legacyLabel(value), LabelPos: r.pos(valueOff)}
		r.mach.Body = append(r.mach.Body, b)
		r.proc, r.topo = nil, nil
		if key == "processor" {
			r.proc = b
		} else if key == "topology" {
			r.topo = b
		}
		r.into, r.where = &b.Body, key
		return
	case "linknumber":
		r.flush()
		if r.topo == nil {
			r.errs.Add(pos, "linknumber outside a topology: expected topology = ID before it")
			return
		}
		if !r.headerNumber(key, value, valueOff) {
			return
		}
		var b *lang.Block
		if r.linkPiece {
			r.link, r.posSrc = r.a.linkPiece(r.src)
			b = &r.link.block
			pos.Src = r.posSrc
		} else {
			b = alloc(&r.a.blocks)
		}
		b.Pos, b.Kind, b.Label, b.LabelPos = pos, "link", legacyLabel(value), r.pos(valueOff)
		// Doubled, not grown by a quarter as append would: a topology
		// of a hundred thousand links is copied about twice over.
		r.topo.Body = slab.Push(r.topo.Body, lang.Stmt(b))
		r.into, r.where = &b.Body, "link"
		return
	}
	if r.mach == nil {
		r.needMachine(pos, key)
		return
	}
	// (A function's key ends in ')': funcKey.)
	if n, ok := wholeNumber(value); ok && key[len(key)-1] != ')' {
		r.number(pos, key, value, n, valueOff)
		return
	}
	f := alloc(&r.a.fields)
	f.Pos, f.Name = pos, key
	if m := funcKey(key); m != nil {
		f.Name, f.Params = m[1], []*lang.Param{}
		for _, p := range strings.Split(m[2], ",") {
			if p = strings.TrimSpace(p); p != "" {
				name, unit, _ := strings.Cut(p, ":")
				name, unit = strings.TrimSpace(name), strings.TrimSpace(unit)
				if _, ok := lang.LookupUnit(unit); unit != "" && !ok {
					r.errs.Add(pos, "unknown unit %q for parameter %s%s", unit, name, lang.DidYouMean(unit, lang.UnitNames()))
				}
				if !lang.IsIdent(name) {
					r.errs.Add(pos, "%q is not a parameter name", name)
				}
				f.Params = append(f.Params, &lang.Param{Pos: pos, Name: name, Unit: unit})
			}
		}
	}
	f.Value = r.value(valueOff, value)
	if f.Value != nil {
		r.addField(f)
	}
}

// number adds the field of the commonest line, a key other than a
// header's whose value is a whole number n: its field and literal are one
// record, set field by field (see value).
func (r *legacyReader) number(pos lang.Pos, key, value string, n int64, valueOff int) {
	var nf *numberField
	if r.link != nil && r.linkNumbers < len(r.link.lines) {
		nf = &r.link.lines[r.linkNumbers]
	} else {
		nf = alloc(&r.a.numberFields)
	}
	if r.where == "link" {
		r.linkNumbers++
	}
	nf.lit.Pos, nf.lit.Text, nf.lit.Value = r.pos(valueOff), digitText(value), lang.Num(float64(n))
	nf.field.Pos, nf.field.Name, nf.field.Value = pos, constText(key), &nf.lit
	r.addField(&nf.field)
}

// numberLine reads the line at off when it has the commonest shape of a
// large file, `key = digits`: a key of letters, digits and '_' from the
// start of the line, one space either side of the '=', and up to 15 digits
// up to the newline or the end of the text. Such a line is plain, and it
// is read as plainLine and entry read it, without their scans; end is its
// newline. It returns false, having done nothing, for any other line.
func (r *legacyReader) numberLine(text string, off int) (end int, ok bool) {
	i := keyEnd(text, off)
	if i == off || i+3 > len(text) || text[i:i+3] != " = " {
		return 0, false
	}
	v := i + 3
	j, n := v, int64(0)
	word := false // the digits were read as one word
	if v+8 <= len(text) {
		// Up to seven digits, the commonest value, read as one word.
		w := swar.Load8(text, v)
		// A byte below '0' or above '9'; each test flags its lowest
		// byte rightly (see notable).
		if m := (((w - '0'*swar.Low) &^ w) | w | (w + (0x7f-'9')*swar.Low)) & swar.High; m != 0 {
			k := bits.TrailingZeros64(m) >> 3
			j, n, word = v+k, int64(digits8((w-'0'*swar.Low)<<(64-8*k))), true
		}
	}
	for !word && j < len(text) && j-v < 15 {
		d := text[j] - '0'
		if d > 9 {
			break
		}
		n = n*10 + int64(d)
		j++
	}
	if j == v || j < len(text) && text[j] != '\n' {
		return 0, false
	}
	key, value := text[off:i], text[v:j]
	switch {
	case r.mach == nil || isHeaderKey(key):
		r.entry(r.pos(off), key, value, v)
	default:
		r.number(r.pos(off), key, value, n, v)
	}
	return j, true
}

// digits8 is the number written in the bytes of x, each a digit's value
// (0 to 9), the first byte the most significant: leading zero bytes are
// leading zeros. Three multiplications combine the bytes in pairs, the
// pairs in fours and the fours in the eight.
func digits8(x uint64) uint64 {
	x = x*10 + x>>8 // byte 2i: digits 2i and 2i+1 as a two-digit number
	const mask = 0x000000ff000000ff
	const mul1, mul2 = 100 + 1000000<<32, 1 + 10000<<32
	return ((x&mask)*mul1 + (x>>16&mask)*mul2) >> 32
}

// keyEnd finds the first byte from off on that cannot be in numberLine's
// keys (or the end of the text): a byte below '0' (a blank, a control byte,
// '#', '"', '(' and ')' among others), '=', '\\' or one past '~'. The
// bytes before it are plain, none of them a blank or '=', so that such a
// key followed by " = " is what plainLine would find. Eight bytes at a time.
func keyEnd(text string, off int) int {
	i := off
	for ; i+8 <= len(text); i += 8 {
		w := swar.Load8(text, i)
		eq := w ^ ('=' * swar.Low)
		bs := w ^ ('\\' * swar.Low)
		// Each test flags its lowest byte rightly (see notable).
		m := (((w - '0'*swar.Low) &^ w) | w | (w + swar.Low) | ((eq - swar.Low) &^ eq) | ((bs - swar.Low) &^ bs)) & swar.High
		if m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(text); i++ {
		if c := text[i]; c < '0' || c == '=' || c == '\\' || c >= 0x7f {
			return i
		}
	}
	return i
}

// isHeaderKey tells the keys that entry reads as headers.
func isHeaderKey(key string) bool {
	switch key {
	case "machinename", "processor", "topology", "modelsection", "linknumber":
		return true
	}
	return false
}

func (r *legacyReader) header(pos lang.Pos, word string) {
	switch {
	case subsections[word]:
		if r.proc == nil {
			r.errs.Add(pos, "%s outside a processor: expected processor = ID before it", word)
			return
		}
		b := &lang.Block{Pos: pos, Kind: word}
		r.proc.Body = append(r.proc.Body, b)
		r.into, r.where = &b.Body, word
	case word == "machinecombinations":
		if !r.needMachine(pos, word) {
			return
		}
		b := &lang.Block{Pos: pos, Kind: word}
		r.mach.Body = append(r.mach.Body, b)
		r.proc, r.topo, r.into, r.where = nil, nil, &b.Body, word
	default:
		known := []string{"machinecombinations"}
		for k := range subsections {
			known = append(known, k)
		}
		r.errs.Add(pos, "unknown section header %q: expected key = value or one of integer_timings, long_integer_timings, float_timings, double_timings, processorcache, combinations, machinecombinations%s",
			word, lang.DidYouMean(word, known))
	}
}

func (r *legacyReader) needMachine(pos lang.Pos, key string) bool {
	if r.mach == nil {
		r.errs.Add(pos, `%s before any machine: expected machinename = "NAME" first`, key)
		return false
	}
	return true
}

func (r *legacyReader) value(off int, text string) lang.Expr {
	pos := r.pos(off)
	if n, ok := wholeNumber(text); ok {
		// Set field by field: the slab is zeroed, and a whole-struct
		// copy would pay the garbage collector's barrier for every word.
		lit := alloc(&r.a.numbers)
		lit.Pos, lit.Text, lit.Value = pos, text, lang.Num(float64(n))
		return lit
	}
	if lit := legacyNumber(pos, text); lit != nil {
		return lit
	}
	if text[0] == '-' {
		// The modern grammar has no negative literals: -5 is a minus
		// applied to 5, and the tree must be the one fmt reads back.
		if lit := legacyNumber(r.pos(off+1), text[1:]); lit != nil {
			return &lang.Unary{Pos: pos, Op: lang.Sub, X: lit}
		}
	}
	if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' && !strings.ContainsAny(text[1:len(text)-1], `"\`) {
		return &lang.StringLit{Pos: pos, Value: text[1 : len(text)-1]}
	}
	e, err := parseExprIn(r.src, off, text)
	if err != nil {
		r.errs.Append(err)
		return nil
	}
	return e
}

// legacyNumber reads text that is one unsigned number in Parasol I ("20.",
// "1.e+3"), or returns nil.
func legacyNumber(pos lang.Pos, text string) *lang.NumberLit {
	if text == "" || text[0] == '+' || text[0] == '-' || strings.ContainsAny(text, "xXpP_in") {
		return nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil
	}
	return &lang.NumberLit{Pos: pos, Text: modernNumber(text), Value: lang.Num(f)}
}

// headerNumber checks the number of a processor, topology or link header:
// an identifier that other fields refer to, so a whole number ≥ 0 (a name
// is accepted too, as in the modern syntax).
func (r *legacyReader) headerNumber(key, value string, off int) bool {
	if n, ok := wholeNumber(value); ok && n <= math.MaxInt32 {
		return true
	}
	f, err := strconv.ParseFloat(value, 64)
	if err != nil && lang.IsIdent(unquoteName(value)) {
		return true
	}
	if err != nil || f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		r.errs.Add(r.pos(off), "%s expects a whole number from 0 to %d, got %s", key, math.MaxInt32, excerpt(value))
		return false
	}
	return true
}

// excerpt shortens user text quoted in a message.
func excerpt(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

// legacyLabel is the label of a header such as `processor = 1`: a number
// in its canonical form (1.0 and 1.e0 name processor(1), as references
// spell it), else the name itself.
func legacyLabel(value string) string {
	if _, ok := wholeNumber(value); ok && (len(value) == 1 || value[0] != '0') {
		return value // already canonical
	}
	if f, err := strconv.ParseFloat(value, 64); err == nil {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return unquoteName(value)
}

// modernNumber rewrites a Parasol I number the modern syntax does not read
// ("20.", "1.e+3") without changing its value.
func modernNumber(text string) string {
	i := strings.IndexByte(text, '.')
	if i < 0 || i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9' {
		return text
	}
	text = text[:i] + text[i+1:]
	if text == "" || text[0] == 'e' || text[0] == 'E' {
		text = "0" + text
	}
	return text
}

// funcKey splits a model primitive's key "send(n: B, dst)" into its name
// and parameter list, or returns nil.
func funcKey(key string) []string {
	if strings.IndexByte(key, '(') < 0 {
		return nil
	}
	return legacyFunc().FindStringSubmatch(key)
}

// commentStart finds a '#' (or the "\#" of seed 002's typesetting) outside
// a string, or -1.
func commentStart(line string) int {
	inStr := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			inStr = !inStr
		case '\\':
			if !inStr && i+1 < len(line) && line[i+1] == '#' {
				return i
			}
		case '#':
			if !inStr {
				return i
			}
		}
	}
	return -1
}

// digitText is the text of a whole number, a constant when it is one digit,
// as constText gives it, without the look for a key.
func digitText(text string) string {
	if len(text) == 1 && text[0] >= '0' && text[0] <= '9' {
		const digits = "0123456789"
		d := text[0] - '0'
		return digits[d : d+1]
	}
	return text
}

// constText returns the keys of a Parasol I link block and one-digit
// numbers as constants, equal to text but outside the heap: the collector
// passes over a pointer to a constant without looking it up, and a large
// file has these on most of its lines.
func constText(text string) string {
	if len(text) == 1 {
		return digitText(text)
	}
	switch text {
	case "linkio":
		return "linkio"
	case "linklatency":
		return "linklatency"
	case "linkspeed":
		return "linkspeed"
	case "procs_connected":
		return "procs_connected"
	case "processortype0":
		return "processortype0"
	case "processortype1":
		return "processortype1"
	case "processornumber":
		return "processornumber"
	}
	return text
}

// wholeNumber reads text made only of at most 15 digits, which a float64
// holds exactly: most values of a Parasol I file.
func wholeNumber(text string) (int64, bool) {
	if text == "" || len(text) > 15 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}
