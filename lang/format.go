package lang

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format prints a file in canonical modern syntax: one statement per line,
// tab indentation, minimal parentheses, comments kept where they stood.
func Format(f *File) string {
	p := &printer{src: f.Src, comments: f.Comments, fresh: true}
	p.stmts(f.Stmts, 0, true, noLimit)
	p.flushBefore(noLimit, 0)
	return alignComments(strings.TrimLeft(p.b.String(), "\n"))
}

// trailingMark stands before a trailing comment until alignComments lines
// it up with the trailing comments of the lines around it.
const trailingMark = "\x00"

// commentText is a comment as printed: a NUL byte, which is the trailing
// comment mark, becomes U+FFFD.
func commentText(c *Comment) string { return strings.ReplaceAll(c.Text, trailingMark, "\uFFFD") }

// alignComments aligns the trailing comments of consecutive lines at the same
// indentation one space past the longest code among them, as gofmt does.
func alignComments(text string) string {
	lines := strings.Split(text, "\n")
	indent := func(l string) string { return l[:len(l)-len(strings.TrimLeft(l, "\t"))] }
	for i := 0; i < len(lines); {
		if !strings.Contains(lines[i], trailingMark) {
			i++
			continue
		}
		j, width := i, 0
		for j < len(lines) && strings.Contains(lines[j], trailingMark) && indent(lines[j]) == indent(lines[i]) {
			code, _, _ := strings.Cut(lines[j], trailingMark)
			width = max(width, utf8.RuneCountInString(code))
			j++
		}
		for k := i; k < j; k++ {
			code, comment, _ := strings.Cut(lines[k], trailingMark)
			lines[k] = code + strings.Repeat(" ", width-utf8.RuneCountInString(code)+1) + comment
		}
		i = j
	}
	return strings.Join(lines, "\n")
}

// FormatExpr prints one expression.
func FormatExpr(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, 0)
	return b.String()
}

// noLimit is the limit of statements that nothing follows.
const noLimit = math.MaxInt

// The printer places comments by source offset. A comment is printed on a
// line of its own before the statement or closing brace it preceded, or
// after the code of a line it stood in: a statement, an opening brace, or a
// closing brace that ends its statement. Whatever it is printed after, a
// newline follows it, so a comment can never swallow code.
type printer struct {
	b        strings.Builder
	src      *Source // the text the positions point into
	comments []*Comment
	next     int  // first comment not yet printed
	last     int  // last source line printed
	fresh    bool // the next line printed opens a file or block: no blank line before it
}

func (p *printer) indent(depth int) { p.b.WriteString(strings.Repeat("\t", depth)) }

// flushBefore prints, each on a line of its own, the comments that stand
// before offset.
func (p *printer) flushBefore(offset, depth int) {
	for p.next < len(p.comments) && p.comments[p.next].Pos.Offset < offset {
		c := p.comments[p.next]
		p.gap(c.Pos)
		p.indent(depth)
		p.b.WriteString(commentText(c))
		p.b.WriteByte('\n')
		p.next++
	}
}

// pendingBefore reports whether a comment not yet printed stands before
// offset.
func (p *printer) pendingBefore(offset int) bool {
	return p.next < len(p.comments) && p.comments[p.next].Pos.Offset < offset
}

// trailing prints the next comment after the code on the current output
// line when it stood on source lines from..to and before offset limit. The
// caller ends the output line.
func (p *printer) trailing(from, to, limit int) {
	if from <= 0 || p.next >= len(p.comments) {
		return
	}
	if c := p.comments[p.next]; c.Pos.Line >= from && c.Pos.Line <= to && c.Pos.Offset < limit {
		p.b.WriteString(trailingMark)
		p.b.WriteString(commentText(c))
		p.last = max(p.last, c.Pos.Line)
		p.next++
	}
}

// gap writes a blank line before what stands at pos when the source had one
// or more right before it, and notes pos's line as printed.
func (p *printer) gap(pos Pos) {
	switch {
	case p.fresh:
		p.fresh = false
	case pos.Line <= p.last:
	case p.sourceOf(pos):
		if strings.TrimSpace(p.src.Line(pos.Line-1)) == "" {
			p.b.WriteByte('\n')
		}
	case p.last > 0 && pos.Line > p.last+1:
		p.b.WriteByte('\n')
	}
	p.last = max(p.last, pos.Line)
}

// stmts prints a statement list whose source ends before offset limit,
// keeping one blank line where the source had one or more, and always one
// between machines.
func (p *printer) stmts(list []Stmt, depth int, top bool, limit int) {
	for i, s := range list {
		if top && i > 0 && isUnit(s) {
			p.b.WriteByte('\n')
			p.fresh = true
		}
		next := limit
		if i+1 < len(list) {
			if pos := list[i+1].StmtPos(); pos.IsValid() && pos.Offset < next {
				next = pos.Offset
			}
		}
		p.stmt(s, depth, next)
	}
}

// isUnit reports whether s is a machine or a program, which a blank line
// always separates from what precedes it at the top level.
func isUnit(s Stmt) bool {
	switch s.(type) {
	case *Machine, *Program:
		return true
	}
	return false
}

// stmt prints a statement whose source ends before offset limit, where the
// next statement or the enclosing closing brace begins.
func (p *printer) stmt(s Stmt, depth, limit int) {
	pos := s.StmtPos()
	if pos.IsValid() {
		p.flushBefore(pos.Offset, depth)
		p.gap(pos)
	}
	p.indent(depth)
	// A simple statement may span lines; a comment on any of them follows
	// it.
	end := lastLine(s)
	switch s := s.(type) {
	case *Machine:
		fmt.Fprintf(&p.b, "machine %s", strconv.Quote(s.Name))
		if s.Extends != "" {
			fmt.Fprintf(&p.b, " extends %s", strconv.Quote(s.Extends))
		}
		p.body(s.Body, depth, pos.Line, p.knownBraces(pos, s.End), limit, true)
	case *Import:
		fmt.Fprintf(&p.b, "import %s", strconv.Quote(s.Path))
		p.trailing(pos.Line, end, limit)
	case *Field:
		if s.IsParam {
			p.b.WriteString("param ")
		}
		if s.IsParam && (s.Name == "link" || s.Name == "bus") {
			p.b.WriteString(s.Name) // a param may take a statement word's name
		} else {
			p.b.WriteString(fieldName(s.Name))
		}
		if s.Params != nil {
			writeParams(&p.b, s.Params)
		}
		p.b.WriteString(" = ")
		writeExpr(&p.b, s.Value, 0)
		p.trailing(pos.Line, end, limit)
	case *Block:
		p.b.WriteString(s.Kind)
		if s.Label != "" {
			p.b.WriteString(" " + label(s.Label))
		}
		if s.Gen != nil {
			p.b.WriteString(" = ")
			writeExpr(&p.b, s.Gen, 0)
		}
		if s.Params != nil {
			writeParams(&p.b, s.Params)
		}
		p.body(s.Body, depth, pos.Line, p.knownBraces(pos, s.End), limit, true)
	case *Link:
		word := "link"
		if s.Bus {
			word = "bus"
			p.b.WriteString("bus ")
			for i, e := range s.Ends {
				if i > 0 {
					p.b.WriteString(", ")
				}
				writeExpr(&p.b, e, 0)
			}
		} else {
			p.b.WriteString("link ")
			writeExpr(&p.b, s.Ends[0], 0)
			p.b.WriteString(" -- ")
			writeExpr(&p.b, s.Ends[1], 0)
		}
		if len(s.Body) > 0 {
			p.body(s.Body, depth, pos.Line, p.scanBraces(pos, word), limit, true)
		} else {
			p.trailing(pos.Line, end, limit)
		}
	case *Node:
		p.b.WriteString("node ")
		writeExpr(&p.b, s.From, 0)
		if s.To != nil {
			p.b.WriteString(" .. ")
			writeExpr(&p.b, s.To, 0)
		}
		p.b.WriteString(" = " + nodeType(s.Type))
		p.trailing(pos.Line, end, limit)
	case *For:
		fmt.Fprintf(&p.b, "for %s in ", s.Var)
		writeExpr(&p.b, s.From, 0)
		p.b.WriteString(" .. ")
		writeExpr(&p.b, s.To, 0)
		p.body(s.Body, depth, pos.Line, p.scanBraces(pos, "for"), limit, true)
	case *If:
		p.ifStmt(s, depth, limit)
	case *Program:
		p.b.WriteString("program " + s.Name)
		if s.Params != nil {
			writeParams(&p.b, s.Params)
		}
		p.body(s.Body, depth, pos.Line, p.knownBraces(pos, s.End), limit, true)
	case *Let:
		fmt.Fprintf(&p.b, "let %s = ", s.Name)
		writeExpr(&p.b, s.Value, 0)
		p.trailing(pos.Line, end, limit)
	case *Do:
		writeExpr(&p.b, s.Call, 0)
		p.trailing(pos.Line, end, limit)
	default:
		panic(fmt.Sprintf("lang.Format: unknown statement %T", s))
	}
	p.b.WriteByte('\n')
	p.last = max(p.last, end)
}

// ifStmt prints an if statement, and an `else if` as the source had it.
func (p *printer) ifStmt(s *If, depth, limit int) {
	p.b.WriteString("if ")
	writeExpr(&p.b, s.Cond, 0)
	then, els, elseIf := p.ifBraces(s)
	// Nothing may follow a comment on the line of the closing brace when
	// `else` does.
	p.body(s.Then, depth, s.Pos.Line, then, limit, s.Else == nil)
	if s.Else == nil {
		return
	}
	p.b.WriteString(" else")
	if elseIf && !p.pendingBefore(s.Else[0].StmtPos().Offset) {
		p.b.WriteString(" ")
		p.ifStmt(s.Else[0].(*If), depth, limit)
		return
	}
	p.body(s.Else, depth, then.close.Line, els, limit, true)
}

// braces are where a body's braces stand in the source; a zero Pos is not
// known (a Parasol I block has none).
type braces struct{ open, close Pos }

// body prints `{ … }`; an empty body without comments prints as `{}`.
// Comments before the closing brace stay inside; the first comment on the
// lines from head to the opening brace follows that brace, and one on the
// line of the closing brace follows it when trailClose is set. Where the
// braces are not known, a body's comments come out before the next
// statement.
func (p *printer) body(list []Stmt, depth, head int, br braces, limit int, trailClose bool) {
	end := limit
	if br.close.IsValid() && br.close.Offset < end {
		end = br.close.Offset
	}
	if len(list) == 0 && (!br.close.IsValid() || !p.pendingBefore(end)) {
		p.b.WriteString(" {}")
	} else {
		p.b.WriteString(" {")
		first := end
		if len(list) > 0 {
			if pos := list[0].StmtPos(); pos.IsValid() && pos.Offset < first {
				first = pos.Offset
			}
		}
		p.trailing(head, max(head, br.open.Line), first)
		p.b.WriteByte('\n')
		p.last = max(p.last, br.open.Line)
		p.fresh = true
		p.stmts(list, depth+1, false, end)
		if br.close.IsValid() {
			p.flushBefore(end, depth+1)
		}
		p.fresh = false
		p.indent(depth)
		p.b.WriteString("}")
	}
	if br.close.IsValid() {
		p.last = max(p.last, br.close.Line)
		if trailClose {
			p.trailing(br.close.Line, br.close.Line, limit)
		}
	}
}

// knownBraces completes the closing brace the tree records with the
// opening brace found in the source.
func (p *printer) knownBraces(pos, end Pos) braces {
	if !end.IsValid() {
		return braces{}
	}
	br := braces{close: end}
	if open, close := p.findBraces(pos); close == end.Offset {
		br.open = p.src.PosAt(open)
	}
	return br
}

// scanBraces finds the braces of the body of the statement at pos, which
// begins with word, in the source: the tree records where bodies of
// `for`, `if`, `link A -- B` and `bus` start but not where they end.
func (p *printer) scanBraces(pos Pos, word string) braces {
	if !p.sourceOf(pos) || !strings.HasPrefix(p.src.Text[pos.Offset:], word) {
		return braces{}
	}
	open, close := p.findBraces(pos)
	if close < 0 {
		return braces{}
	}
	return braces{p.src.PosAt(open), p.src.PosAt(close)}
}

// ifBraces finds the braces of both branches of an if statement. An `else
// if` has no braces of its own: its inner if statement ends the branch,
// and els.open is where that if stands.
func (p *printer) ifBraces(s *If) (then, els braces, elseIf bool) {
	then = p.scanBraces(s.Pos, "if")
	if s.Else == nil || !then.close.IsValid() {
		return then, braces{}, false
	}
	text := p.src.Text
	i := skipSpace(text, then.close.Offset+1)
	if !strings.HasPrefix(text[i:], "else") {
		return then, braces{}, false
	}
	i = skipSpace(text, i+len("else"))
	if i < len(text) && text[i] == '{' {
		return then, p.scanBraces(p.src.PosAt(i), "{"), false
	}
	inner, ok := s.Else[0].(*If)
	if len(s.Else) != 1 || !ok || inner.Pos.Offset != i {
		return then, braces{}, false
	}
	return then, braces{open: inner.Pos}, true
}

func (p *printer) sourceOf(pos Pos) bool {
	return p.src != nil && pos.IsValid() && pos.Src == p.src && pos.Offset < len(p.src.Text)
}

// findBraces returns the offsets of the first '{' at or after pos and of
// its matching '}', skipping strings and comments, or -1, -1.
func (p *printer) findBraces(pos Pos) (open, close int) {
	if !p.sourceOf(pos) {
		return -1, -1
	}
	return matching(p.src.Text, pos.Offset, '{', '}')
}

// skipSpace returns the offset of the first byte at or after i that is
// neither white space nor in a comment.
func skipSpace(text string, i int) int {
	for i < len(text) {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '#' || c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// lastLine is the last source line a statement's tree reaches: its closing
// brace, or the last token whose position it records.
func lastLine(s Stmt) int {
	line := s.StmtPos().Line
	walk := func(e Expr) {
		Inspect(e, func(e Expr) bool {
			if e != nil {
				line = max(line, e.ExprPos().Line)
			}
			return true
		})
	}
	switch s := s.(type) {
	case *Machine:
		line = max(line, s.End.Line)
	case *Program:
		line = max(line, s.End.Line)
	case *Let:
		walk(s.Value)
	case *Do:
		walk(s.Call)
	case *Block:
		line = max(line, s.End.Line)
	case *Field:
		walk(s.Value)
	case *Node:
		walk(s.From)
		walk(s.To)
		line = max(line, s.TypePos.Line)
	case *Link:
		for _, e := range s.Ends {
			walk(e)
		}
	}
	return line
}

func writeParams(b *strings.Builder, params []*Param) {
	b.WriteByte('(')
	for i, prm := range params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(prm.Name)
		if prm.Unit != "" {
			b.WriteString(": " + prm.Unit)
		}
		if prm.Default != nil {
			b.WriteString(" = ")
			writeExpr(b, prm.Default, 0)
		}
	}
	b.WriteByte(')')
}

// fieldName quotes names that are not identifiers (Parasol I "fp type") or
// are keywords ("or"); `node` stays bare, as in `node = xcore`.
func fieldName(n string) string {
	// machinename is quoted so that formatted text is never taken for the
	// Parasol I format, whose files start with machinename = "…".
	if IsIdent(n) && (!IsKeyword(n) || n == "node") && n != "machinename" {
		return n
	}
	return strconv.Quote(n)
}

func label(l string) string {
	if IsIdent(l) && (!IsKeyword(l) || l == "node" || l == "link" || l == "bus") {
		return l
	}
	if plainNumber(l) {
		return l
	}
	return strconv.Quote(l)
}

// nodeType quotes a node's type unless it reads as the name or number it is.
func nodeType(t string) string {
	if IsIdent(t) && !IsKeyword(t) {
		return t
	}
	if plainNumber(t) {
		return t
	}
	return strconv.Quote(t)
}

// plainNumber reports whether s reads as one number without a unit:
// 12, 1.5, .5, 2e-3.
func plainNumber(s string) bool {
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	i := digits(0)
	if i < len(s) && s[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return false
		}
		i = j
	} else if i == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := digits(j)
		if k == j {
			return false
		}
		i = k
	}
	return i == len(s)
}

// IsIdent reports whether s is a plain identifier.
func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}

func writeExpr(b *strings.Builder, e Expr, prec int) {
	switch e := e.(type) {
	case *NumberLit:
		b.WriteString(e.Text)
	case *StringLit:
		b.WriteString(strconv.Quote(e.Value))
	case *BoolLit:
		b.WriteString(strconv.FormatBool(e.Value))
	case *Ident:
		// Only `node = "a b"` makes an Ident that is not an identifier;
		// quoted, it reads back the same.
		if IsIdent(e.Name) {
			b.WriteString(e.Name)
		} else {
			b.WriteString(strconv.Quote(e.Name))
		}
	case *Unary:
		open(b, prec > UnaryPrecedence)
		if e.Op == Not {
			b.WriteString("not ")
		} else {
			b.WriteString(e.Op.String())
		}
		writeExpr(b, e.X, UnaryPrecedence)
		closeParen(b, prec > UnaryPrecedence)
	case *Binary:
		if hyphenated(e) {
			// A word with hyphens (first-ready, recursive-doubling) as
			// written, not as a subtraction; still a subtraction to the
			// parser, so bracketed where one would be: 2 * (a-b).
			q := Sub.Precedence()
			open(b, prec > q)
			writeExpr(b, e.X, q)
			b.WriteString("-")
			writeExpr(b, e.Y, 100)
			closeParen(b, prec > q)
			return
		}
		q := e.Op.Precedence()
		open(b, prec > q)
		left, right := q, q+1
		if e.Op == Pow {
			left, right = q+1, q
		}
		writeExpr(b, e.X, left)
		if e.Op == Pow {
			b.WriteString("^") // binds tightest: 2^i, -2^2
		} else {
			b.WriteString(" " + e.Op.String() + " ")
		}
		writeExpr(b, e.Y, right)
		closeParen(b, prec > q)
	case *Cond:
		open(b, prec > 0)
		b.WriteString("if ")
		writeExpr(b, e.If, 0)
		b.WriteString(" then ")
		writeExpr(b, e.Then, 0)
		b.WriteString(" else ")
		writeExpr(b, e.Else, 0)
		closeParen(b, prec > 0)
	case *Call:
		writeExpr(b, e.Fn, 100)
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a, 0)
		}
		b.WriteByte(')')
	case *Select:
		writeExpr(b, e.X, 100)
		b.WriteString(".")
		if IsIdent(e.Name) { // keywords are fine after a dot
			b.WriteString(e.Name)
		} else {
			b.WriteString(strconv.Quote(e.Name))
		}
	case *NamedArg:
		b.WriteString(e.Name + ": ")
		writeExpr(b, e.X, 0)
	case *Sum:
		fmt.Fprintf(b, "sum(%s in ", e.Var)
		writeExpr(b, e.From, 0)
		b.WriteString(" .. ")
		writeExpr(b, e.To, 0)
		b.WriteString(", ")
		writeExpr(b, e.Body, 0)
		b.WriteByte(')')
	default:
		panic(fmt.Sprintf("lang.FormatExpr: unknown expression %T", e))
	}
}

// hyphenated reports whether e is names joined by '-' with no blanks
// between, as the source wrote it: a word such as first-ready.
func hyphenated(e *Binary) bool {
	if e.Op != Sub {
		return false
	}
	if _, ok := e.Y.(*Ident); !ok {
		return false
	}
	switch x := e.X.(type) {
	case *Ident:
	case *Binary:
		if !hyphenated(x) {
			return false
		}
	default:
		return false
	}
	end, start := End(e.X), e.Y.ExprPos()
	return e.Pos.Src != nil && end.Src.Same(e.Pos.Src) && start.Src.Same(e.Pos.Src) &&
		end.Offset == e.Pos.Offset && start.Offset == e.Pos.Offset+1
}

func open(b *strings.Builder, yes bool) {
	if yes {
		b.WriteByte('(')
	}
}

func closeParen(b *strings.Builder, yes bool) {
	if yes {
		b.WriteByte(')')
	}
}

// CheckFormatted reports, as a diagnostic positioned in orig, the first
// way in which formatted (the parse of Format(orig)) differs from orig: a
// statement or expression that is not the same apart from positions and the
// spelling of booleans (yes, true), or a comment dropped, added or moved
// past another. Whoever writes formatted text over a user's file checks it
// first, so that no formatter bug can lose the user's work.
func CheckFormatted(orig, formatted *File) error {
	d := &treeDiff{at: Pos{Src: orig.Src}}
	if len(orig.Stmts) != len(formatted.Stmts) {
		return Errorf(d.at, "formatting would change the meaning: %d statements at the top level became %d", len(orig.Stmts), len(formatted.Stmts))
	}
	if !d.equal(reflect.ValueOf(orig.Stmts), reflect.ValueOf(formatted.Stmts)) {
		return Errorf(d.at, "formatting would change the meaning here: %s", d.what)
	}
	return checkComments(orig, formatted)
}

// treeDiff compares syntax trees, remembering the last position it passed
// in the first tree so that a difference can be shown in the source.
type treeDiff struct {
	at    Pos
	what  string
	named bool // what names the field that differs
}

var (
	posType     = reflect.TypeFor[Pos]()
	sourceType  = reflect.TypeFor[*Source]()
	boolLitType = reflect.TypeFor[BoolLit]()
	paramsType  = reflect.TypeFor[[]*Param]()
	opType      = reflect.TypeFor[Op]()
)

func (d *treeDiff) equal(a, b reflect.Value) bool {
	if a.Type() == opType {
		if x, y := a.Interface().(Op), b.Interface().(Op); x != y {
			d.what = fmt.Sprintf("%q became %q", x, y)
			return false
		}
		return true
	}
	switch a.Kind() {
	case reflect.Interface, reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				d.what = fmt.Sprintf("%s became %s", describe(a), describe(b))
				return false
			}
			return true
		}
		if a.Elem().Type() != b.Elem().Type() {
			d.what = fmt.Sprintf("%s became %s", describe(a), describe(b))
			return false
		}
		return d.equal(a.Elem(), b.Elem())
	case reflect.Slice:
		// An empty list is no list, except for parameters: f() = … is a
		// function, f = … a field.
		if a.Type() == paramsType && a.IsNil() != b.IsNil() {
			d.what = "a parameter list was added or dropped"
			return false
		}
		if a.Len() != b.Len() {
			d.what = fmt.Sprintf("%d items became %d", a.Len(), b.Len())
			return false
		}
		for i := range a.Len() {
			if !d.equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		t := a.Type()
		if f := a.FieldByName("Pos"); f.IsValid() && f.Type() == posType && f.CanInterface() {
			if pos := f.Interface().(Pos); pos.IsValid() {
				d.at = pos
			}
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Type == posType || f.Type == sourceType || t == boolLitType && f.Name == "Text" {
				continue
			}
			if !d.equal(a.Field(i), b.Field(i)) {
				if !d.named {
					d.what = t.Name() + "." + f.Name + ": " + d.what
					d.named = true
				}
				return false
			}
		}
		return true
	case reflect.String:
		if a.String() != b.String() {
			d.what = fmt.Sprintf("%q became %q", a.String(), b.String())
			return false
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			d.what = fmt.Sprintf("%v became %v", a.Bool(), b.Bool())
			return false
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			d.what = fmt.Sprintf("%d became %d", a.Int(), b.Int())
			return false
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if a.Uint() != b.Uint() {
			d.what = fmt.Sprintf("%d became %d", a.Uint(), b.Uint())
			return false
		}
	case reflect.Float32, reflect.Float64:
		if x, y := a.Float(), b.Float(); x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			d.what = fmt.Sprintf("%v became %v", x, y)
			return false
		}
	default:
		d.what = "a " + a.Type().String() + " that cannot be compared"
		return false
	}
	return true
}

// describe names a node for a message: "nothing" or its Go type without the
// package.
func describe(v reflect.Value) string {
	if v.IsNil() {
		return "nothing"
	}
	t := v.Elem().Type()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return "a " + t.Name()
}

// checkComments requires formatted to hold orig's comments in the same
// order. Comments are compared as printed: a NUL byte prints as U+FFFD.
func checkComments(orig, formatted *File) error {
	i := 0
	for _, c := range orig.Comments {
		if i >= len(formatted.Comments) || formatted.Comments[i].Text != commentText(c) {
			return Errorf(c.Pos, "formatting would lose or move this comment")
		}
		i++
	}
	if i < len(formatted.Comments) {
		c := formatted.Comments[i]
		return Errorf(Pos{Src: orig.Src}, "formatting would add a comment: %s", Excerpt(c.Text))
	}
	return nil
}
