// Package format prints Parasol's syntax tree as canonical modern text: the
// formatter behind `parasol fmt` and `parasol import`, and the printing of
// expressions in messages. It reads the tree and the source the tree points
// into, and writes text; the tree itself (package lang) knows nothing of
// layout.
//
// File prints a file with its comments kept where they stood (format.go);
// Expr prints one expression with minimal parentheses and names quoted
// where they must be (expr.go); Check holds a formatted file to the meaning
// of the one it came from, so that no formatter bug can lose a user's work
// (check.go).
package format

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parasol-lang/parasol/lang"
)

// File prints a file in canonical modern syntax: one statement per line,
// tab indentation, minimal parentheses, comments kept where they stood.
func File(f *lang.File) string {
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
func commentText(c *lang.Comment) string { return strings.ReplaceAll(c.Text, trailingMark, "\uFFFD") }

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

// noLimit is the limit of statements that nothing follows.
const noLimit = math.MaxInt

// The printer places comments by source offset. A comment is printed on a
// line of its own before the statement or closing brace it preceded, or
// after the code of a line it stood in: a statement, an opening brace, or a
// closing brace that ends its statement. Whatever it is printed after, a
// newline follows it, so a comment can never swallow code.
type printer struct {
	b        strings.Builder
	src      *lang.Source // the text the positions point into
	comments []*lang.Comment
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
func (p *printer) gap(pos lang.Pos) {
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
func (p *printer) stmts(list []lang.Stmt, depth int, top bool, limit int) {
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
func isUnit(s lang.Stmt) bool {
	switch s.(type) {
	case *lang.Machine, *lang.Program:
		return true
	}
	return false
}

// stmt prints a statement whose source ends before offset limit, where the
// next statement or the enclosing closing brace begins.
func (p *printer) stmt(s lang.Stmt, depth, limit int) {
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
	case *lang.Machine:
		fmt.Fprintf(&p.b, "machine %s", strconv.Quote(s.Name))
		if s.Extends != "" {
			fmt.Fprintf(&p.b, " extends %s", strconv.Quote(s.Extends))
		}
		p.body(s.Body, depth, pos.Line, p.knownBraces(pos, s.End), limit, true)
	case *lang.Import:
		fmt.Fprintf(&p.b, "import %s", strconv.Quote(s.Path))
		p.trailing(pos.Line, end, limit)
	case *lang.Field:
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
	case *lang.Block:
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
	case *lang.Link:
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
	case *lang.Node:
		p.b.WriteString("node ")
		writeExpr(&p.b, s.From, 0)
		if s.To != nil {
			p.b.WriteString(" .. ")
			writeExpr(&p.b, s.To, 0)
		}
		p.b.WriteString(" = " + nodeType(s.Type))
		p.trailing(pos.Line, end, limit)
	case *lang.For:
		fmt.Fprintf(&p.b, "for %s in ", s.Var)
		writeExpr(&p.b, s.From, 0)
		p.b.WriteString(" .. ")
		writeExpr(&p.b, s.To, 0)
		p.body(s.Body, depth, pos.Line, p.scanBraces(pos, "for"), limit, true)
	case *lang.If:
		p.ifStmt(s, depth, limit)
	case *lang.Program:
		p.b.WriteString("program " + s.Name)
		if s.Params != nil {
			writeParams(&p.b, s.Params)
		}
		p.body(s.Body, depth, pos.Line, p.knownBraces(pos, s.End), limit, true)
	case *lang.Let:
		fmt.Fprintf(&p.b, "let %s = ", s.Name)
		writeExpr(&p.b, s.Value, 0)
		p.trailing(pos.Line, end, limit)
	case *lang.Do:
		writeExpr(&p.b, s.Call, 0)
		p.trailing(pos.Line, end, limit)
	default:
		panic(fmt.Sprintf("format.File: unknown statement %T", s))
	}
	p.b.WriteByte('\n')
	p.last = max(p.last, end)
}

// ifStmt prints an if statement, and an `else if` as the source had it.
func (p *printer) ifStmt(s *lang.If, depth, limit int) {
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
		p.ifStmt(s.Else[0].(*lang.If), depth, limit)
		return
	}
	p.body(s.Else, depth, then.close.Line, els, limit, true)
}

// braces are where a body's braces stand in the source; a zero Pos is not
// known (a Parasol I block has none).
type braces struct{ open, close lang.Pos }

// body prints `{ … }`; an empty body without comments prints as `{}`.
// Comments before the closing brace stay inside; the first comment on the
// lines from head to the opening brace follows that brace, and one on the
// line of the closing brace follows it when trailClose is set. Where the
// braces are not known, a body's comments come out before the next
// statement.
func (p *printer) body(list []lang.Stmt, depth, head int, br braces, limit int, trailClose bool) {
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
func (p *printer) knownBraces(pos, end lang.Pos) braces {
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
func (p *printer) scanBraces(pos lang.Pos, word string) braces {
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
func (p *printer) ifBraces(s *lang.If) (then, els braces, elseIf bool) {
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
	inner, ok := s.Else[0].(*lang.If)
	if len(s.Else) != 1 || !ok || inner.Pos.Offset != i {
		return then, braces{}, false
	}
	return then, braces{open: inner.Pos}, true
}

func (p *printer) sourceOf(pos lang.Pos) bool {
	return p.src != nil && pos.IsValid() && pos.Src == p.src && pos.Offset < len(p.src.Text)
}

// findBraces returns the offsets of the first '{' at or after pos and of
// its matching '}', skipping strings and comments, or -1, -1.
func (p *printer) findBraces(pos lang.Pos) (open, close int) {
	if !p.sourceOf(pos) {
		return -1, -1
	}
	return lang.Brackets(p.src.Text, pos.Offset, '{', '}')
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
func lastLine(s lang.Stmt) int {
	line := s.StmtPos().Line
	walk := func(e lang.Expr) {
		lang.Inspect(e, func(e lang.Expr) bool {
			if e != nil {
				line = max(line, e.ExprPos().Line)
			}
			return true
		})
	}
	switch s := s.(type) {
	case *lang.Machine:
		line = max(line, s.End.Line)
	case *lang.Program:
		line = max(line, s.End.Line)
	case *lang.Let:
		walk(s.Value)
	case *lang.Do:
		walk(s.Call)
	case *lang.Block:
		line = max(line, s.End.Line)
	case *lang.Field:
		walk(s.Value)
	case *lang.Node:
		walk(s.From)
		walk(s.To)
		line = max(line, s.TypePos.Line)
	case *lang.Link:
		for _, e := range s.Ends {
			walk(e)
		}
	}
	return line
}

func writeParams(b *strings.Builder, params []*lang.Param) {
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
