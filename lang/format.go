package lang

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format prints a file in canonical modern syntax: one statement per line,
// tab indentation, minimal parentheses, comments kept where they stood.
func Format(f *File) string {
	p := &printer{comments: f.Comments}
	p.stmts(f.Stmts, 0, true)
	p.flushComments(1<<31-1, 0)
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

type printer struct {
	b        strings.Builder
	comments []*Comment
	next     int // first comment not yet printed
	last     int // source line where the last statement ended
}

func (p *printer) indent(depth int) { p.b.WriteString(strings.Repeat("\t", depth)) }

// flushComments prints the comments that stand before line, keeping one
// blank line where the source had any.
func (p *printer) flushComments(line, depth int) {
	for p.next < len(p.comments) && p.comments[p.next].Pos.Line < line {
		p.gap(p.comments[p.next].Pos.Line)
		p.last = p.comments[p.next].Pos.Line
		p.indent(depth)
		p.b.WriteString(commentText(p.comments[p.next]))
		p.b.WriteByte('\n')
		p.next++
	}
}

// trailing prints a comment on the same line as a statement.
func (p *printer) trailing(line int) {
	if p.next < len(p.comments) && p.comments[p.next].Pos.Line == line {
		p.b.WriteString(trailingMark)
		p.b.WriteString(commentText(p.comments[p.next]))
		p.next++
	}
}

// gap writes a blank line when the source had one or more before line.
func (p *printer) gap(line int) {
	if p.last > 0 && line > p.last+1 {
		p.b.WriteByte('\n')
	}
}

// stmts prints a statement list, keeping one blank line where the source
// had one or more, and always one between machines.
func (p *printer) stmts(list []Stmt, depth int, top bool) {
	for i, s := range list {
		if _, isMachine := s.(*Machine); top && isMachine && i > 0 {
			p.last = 0
			p.b.WriteByte('\n')
		} else if i == 0 && !top {
			p.last = 0 // no blank line at the top of a block
		}
		p.stmt(s, depth)
	}
}

func (p *printer) stmt(s Stmt, depth int) {
	pos := s.StmtPos()
	p.flushComments(pos.Line, depth)
	p.gap(pos.Line)
	p.last = pos.Line
	defer func() { p.last = max(p.last, endLine(s)) }()
	p.indent(depth)
	switch s := s.(type) {
	case *Machine:
		fmt.Fprintf(&p.b, "machine %s", strconv.Quote(s.Name))
		if s.Extends != "" {
			fmt.Fprintf(&p.b, " extends %s", strconv.Quote(s.Extends))
		}
		p.body(s.Body, depth, pos.Line, s.End.Line)
	case *Import:
		fmt.Fprintf(&p.b, "import %s", strconv.Quote(s.Path))
		p.trailing(pos.Line)
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
		p.trailing(pos.Line)
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
		p.body(s.Body, depth, pos.Line, s.End.Line)
	case *Link:
		if s.Bus {
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
			p.body(s.Body, depth, pos.Line, 0)
		} else {
			p.trailing(pos.Line)
		}
	case *Node:
		p.b.WriteString("node ")
		writeExpr(&p.b, s.From, 0)
		if s.To != nil {
			p.b.WriteString(" .. ")
			writeExpr(&p.b, s.To, 0)
		}
		p.b.WriteString(" = " + s.Type)
		p.trailing(pos.Line)
	case *For:
		fmt.Fprintf(&p.b, "for %s in ", s.Var)
		writeExpr(&p.b, s.From, 0)
		p.b.WriteString(" .. ")
		writeExpr(&p.b, s.To, 0)
		p.body(s.Body, depth, pos.Line, 0)
	case *If:
		p.b.WriteString("if ")
		writeExpr(&p.b, s.Cond, 0)
		p.body(s.Then, depth, pos.Line, 0)
		if s.Else != nil {
			p.b.WriteString(" else")
			p.body(s.Else, depth, 0, 0)
		}
	default:
		panic(fmt.Sprintf("lang.Format: unknown statement %T", s))
	}
	p.b.WriteByte('\n')
}

// endLine is the last source line of a statement, as far as it is known.
func endLine(s Stmt) int {
	switch s := s.(type) {
	case *Machine:
		return s.End.Line
	case *Block:
		if s.End.Line > 0 {
			return s.End.Line
		}
		if n := len(s.Body); n > 0 {
			return endLine(s.Body[n-1])
		}
	case *Link:
		if n := len(s.Body); n > 0 {
			return endLine(s.Body[n-1]) + 1
		}
	case *For:
		if n := len(s.Body); n > 0 {
			return endLine(s.Body[n-1]) + 1
		}
	case *If:
		if n := len(s.Else); n > 0 {
			return endLine(s.Else[n-1]) + 1
		}
		if n := len(s.Then); n > 0 {
			return endLine(s.Then[n-1]) + 1
		}
	}
	return s.StmtPos().Line
}

// body prints `{ … }`; an empty body prints as `{}`.
func (p *printer) body(list []Stmt, depth, line, end int) {
	if len(list) == 0 && !p.commentsBefore(end) {
		p.b.WriteString(" {}")
		p.trailing(line)
		return
	}
	p.b.WriteString(" {")
	p.trailing(line)
	p.b.WriteByte('\n')
	p.stmts(list, depth+1, false)
	if end > 0 {
		p.flushComments(end, depth+1)
	}
	p.indent(depth)
	p.b.WriteString("}")
}

func (p *printer) commentsBefore(line int) bool {
	return line > 0 && p.next < len(p.comments) && p.comments[p.next].Pos.Line < line
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
	}
	b.WriteByte(')')
}

// fieldName quotes names that are not identifiers (Parasol I "fp type") or
// are keywords ("or"); `node` stays bare, as in `node = xcore`.
func fieldName(n string) string {
	// machinename is quoted so that formatted text is never taken for the
	// Parasol I format, whose files start with machinename = "…".
	if IsIdent(n) && (!Keywords[n] || n == "node") && n != "machinename" {
		return n
	}
	return strconv.Quote(n)
}

func label(l string) string {
	if IsIdent(l) && (!Keywords[l] || l == "node" || l == "link" || l == "bus") {
		return l
	}
	if _, err := strconv.ParseFloat(l, 64); err == nil && l[0] != '-' {
		return l
	}
	return strconv.Quote(l)
}

// Keywords are reserved words of the modern syntax.
var Keywords = map[string]bool{
	"machine": true, "extends": true, "import": true, "param": true,
	"if": true, "then": true, "else": true, "for": true, "in": true,
	"and": true, "or": true, "not": true, "true": true, "false": true,
	"sum": true, "node": true, "link": true, "bus": true,
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
		b.WriteString(e.Name)
	case *Unary:
		open(b, prec > UnaryPrecedence)
		if e.Op == "not" {
			b.WriteString("not ")
		} else {
			b.WriteString(e.Op)
		}
		writeExpr(b, e.X, UnaryPrecedence)
		closeParen(b, prec > UnaryPrecedence)
	case *Binary:
		q := Precedence[e.Op]
		open(b, prec > q)
		left, right := q, q+1
		if e.Op == "^" {
			left, right = q+1, q
		}
		writeExpr(b, e.X, left)
		if e.Op == "^" {
			b.WriteString("^") // binds tightest: 2^i, -2^2
		} else {
			b.WriteString(" " + e.Op + " ")
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
