package format

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// Expr prints one expression.
func Expr(e lang.Expr) string {
	var b strings.Builder
	writeExpr(&b, e, 0)
	return b.String()
}

// fieldName quotes names that are not identifiers (Parasol I "fp type") or
// are keywords ("or"); `node` stays bare, as in `node = xcore`.
func fieldName(n string) string {
	// machinename is quoted so that formatted text is never taken for the
	// Parasol I format, whose files start with machinename = "…".
	if lang.IsIdent(n) && (!lang.IsKeyword(n) || n == "node") && n != "machinename" {
		return n
	}
	return strconv.Quote(n)
}

func label(l string) string {
	if lang.IsIdent(l) && (!lang.IsKeyword(l) || l == "node" || l == "link" || l == "bus") {
		return l
	}
	if plainNumber(l) {
		return l
	}
	return strconv.Quote(l)
}

// nodeType quotes a node's type unless it reads as the name or number it is.
func nodeType(t string) string {
	if lang.IsIdent(t) && !lang.IsKeyword(t) {
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

func writeExpr(b *strings.Builder, e lang.Expr, prec int) {
	switch e := e.(type) {
	case *lang.NumberLit:
		b.WriteString(e.Text)
	case *lang.StringLit:
		b.WriteString(strconv.Quote(e.Value))
	case *lang.BoolLit:
		b.WriteString(strconv.FormatBool(e.Value))
	case *lang.Ident:
		// Only `node = "a b"` makes an Ident that is not an identifier;
		// quoted, it reads back the same.
		if lang.IsIdent(e.Name) {
			b.WriteString(e.Name)
		} else {
			b.WriteString(strconv.Quote(e.Name))
		}
	case *lang.Unary:
		open(b, prec > lang.UnaryPrecedence)
		if e.Op == lang.Not {
			b.WriteString("not ")
		} else {
			b.WriteString(e.Op.String())
		}
		writeExpr(b, e.X, lang.UnaryPrecedence)
		closeParen(b, prec > lang.UnaryPrecedence)
	case *lang.Binary:
		if hyphenated(e) {
			// A word with hyphens (first-ready, recursive-doubling) as
			// written, not as a subtraction; still a subtraction to the
			// parser, so bracketed where one would be: 2 * (a-b).
			q := lang.Sub.Precedence()
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
		if e.Op == lang.Pow {
			left, right = q+1, q
		}
		writeExpr(b, e.X, left)
		if e.Op == lang.Pow {
			b.WriteString("^") // binds tightest: 2^i, -2^2
		} else {
			b.WriteString(" " + e.Op.String() + " ")
		}
		writeExpr(b, e.Y, right)
		closeParen(b, prec > q)
	case *lang.Cond:
		open(b, prec > 0)
		b.WriteString("if ")
		writeExpr(b, e.If, 0)
		b.WriteString(" then ")
		writeExpr(b, e.Then, 0)
		b.WriteString(" else ")
		writeExpr(b, e.Else, 0)
		closeParen(b, prec > 0)
	case *lang.Call:
		writeExpr(b, e.Fn, 100)
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a, 0)
		}
		b.WriteByte(')')
	case *lang.Select:
		writeExpr(b, e.X, 100)
		b.WriteString(".")
		if lang.IsIdent(e.Name) { // keywords are fine after a dot
			b.WriteString(e.Name)
		} else {
			b.WriteString(strconv.Quote(e.Name))
		}
	case *lang.NamedArg:
		b.WriteString(e.Name + ": ")
		writeExpr(b, e.X, 0)
	case *lang.Sum:
		fmt.Fprintf(b, "sum(%s in ", e.Var)
		writeExpr(b, e.From, 0)
		b.WriteString(" .. ")
		writeExpr(b, e.To, 0)
		b.WriteString(", ")
		writeExpr(b, e.Body, 0)
		b.WriteByte(')')
	default:
		panic(fmt.Sprintf("format.Expr: unknown expression %T", e))
	}
}

// hyphenated reports whether e is names joined by '-' with no blanks
// between, as the source wrote it: a word such as first-ready.
func hyphenated(e *lang.Binary) bool {
	if e.Op != lang.Sub {
		return false
	}
	if _, ok := e.Y.(*lang.Ident); !ok {
		return false
	}
	switch x := e.X.(type) {
	case *lang.Ident:
	case *lang.Binary:
		if !hyphenated(x) {
			return false
		}
	default:
		return false
	}
	end, start := lang.End(e.X), e.Y.ExprPos()
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
