package lang

// File is one parsed source: modern syntax or the Parasol I format, which
// the parser turns into the same tree.
type File struct {
	Src      *Source
	Legacy   bool       // written in the Parasol I line format
	Stmts    []Stmt     // *Machine, *Import, *Program, and statements shared by every machine
	Comments []*Comment // every comment, in source order, for the formatter
}

// Comment is a "#" or "//" comment.
type Comment struct {
	Pos  Pos
	Text string // with its marker
}

// Stmt is a statement: a field, function, block, loop, condition, ….
type Stmt interface{ StmtPos() Pos }

// Machine is `machine "NAME" [extends "BASE"] { … }` or, in Parasol I, the
// lines after `machinename = "NAME"`.
type Machine struct {
	Pos        Pos
	Name       string
	Extends    string
	ExtendsPos Pos
	Body       []Stmt
	End        Pos // closing brace (modern syntax)
}

// Import is `import "path"`: the machines and shared statements of another
// file become visible.
type Import struct {
	Pos  Pos
	Path string
}

// Field is `name = value`, `param name = value`, or a function
// `name(p, q) = body` when Params is non-nil.
type Field struct {
	Pos     Pos
	Name    string
	IsParam bool
	Params  []*Param // nil for a value; non-nil (maybe empty) for a function
	Value   Expr
}

// IsFunc reports whether f defines a function.
func (f *Field) IsFunc() bool { return f.Params != nil }

// Param is a function parameter, optionally with the unit a plain-number
// argument is taken in: `send(n: B, dst)`. A program's parameter may have
// a default value: `program p(n: B = 8KB)`.
type Param struct {
	Pos     Pos
	Name    string
	Unit    string
	Default Expr // programs only; nil when none
}

// Program is `program NAME[(params)] { body }`: an SPMD program whose body
// every rank runs. Its statements are *Let, *Do, *For and *If.
type Program struct {
	Pos     Pos
	Name    string
	NamePos Pos
	Params  []*Param // nil when the program has no parameter list
	Body    []Stmt
	End     Pos // closing brace
}

// Let is `let NAME = VALUE` in a program: a local value, or with a call of
// isend or irecv a request handle for wait.
type Let struct {
	Pos   Pos
	Name  string
	Value Expr
}

// Do is a statement call in a program: `send(8KB, to: 3)`, `barrier()`.
type Do struct {
	Pos  Pos
	Call *Call
}

// NamedArg is `NAME: VALUE`, a named argument of a program statement's
// call: `to: rank + 1`.
type NamedArg struct {
	Pos  Pos // the name
	Name string
	X    Expr
}

// Block is `kind [label] [= generator(args)] [(params)] { body }`: a
// processor, switch, topology, link template, model section or subsection.
type Block struct {
	Pos      Pos
	Kind     string
	Label    string // "" when the block has none
	LabelPos Pos
	Gen      *Call    // topology generator: `topology t = torus(4, 4)`
	Params   []*Param // link template parameters: `link(d) { … }`
	Body     []Stmt
	End      Pos
}

// Link is an explicit link in modern syntax, `link A -- B { … }`, or a
// shared medium, `bus A, B, C { … }`.
type Link struct {
	Pos  Pos
	Bus  bool
	Ends []Expr
	Body []Stmt
}

// Node is `node FROM [.. TO] = TYPE`: which processor or switch type nodes
// FROM..TO of an explicit topology are.
type Node struct {
	Pos      Pos
	From, To Expr // To is nil for a single node
	Type     string
	TypePos  Pos
}

// For is `for VAR in FROM .. TO { … }`, with inclusive bounds.
type For struct {
	Pos      Pos
	Var      string
	From, To Expr
	Body     []Stmt
}

// If is `if COND { … } [else { … }]` at statement level.
type If struct {
	Pos  Pos
	Cond Expr
	Then []Stmt
	Else []Stmt
}

func (s *Machine) StmtPos() Pos { return s.Pos }
func (s *Import) StmtPos() Pos  { return s.Pos }
func (s *Field) StmtPos() Pos   { return s.Pos }
func (s *Block) StmtPos() Pos   { return s.Pos }
func (s *Link) StmtPos() Pos    { return s.Pos }
func (s *Node) StmtPos() Pos    { return s.Pos }
func (s *For) StmtPos() Pos     { return s.Pos }
func (s *If) StmtPos() Pos      { return s.Pos }
func (s *Program) StmtPos() Pos { return s.Pos }
func (s *Let) StmtPos() Pos     { return s.Pos }
func (s *Do) StmtPos() Pos      { return s.Pos }

// Expr is an expression.
type Expr interface{ ExprPos() Pos }

// NumberLit is a number with an optional unit suffix; Value holds it in SI
// base units.
type NumberLit struct {
	Pos   Pos
	Text  string
	Value Value
}

// StringLit is a quoted string.
type StringLit struct {
	Pos   Pos
	Value string
}

// BoolLit is true/false/yes/no.
type BoolLit struct {
	Pos   Pos
	Value bool
	Text  string
}

// Ident is a bare name.
type Ident struct {
	Pos  Pos
	Name string
}

// Unary is `-x`, `+x` or `not x`: Op is Sub, Add or Not.
type Unary struct {
	Pos Pos
	Op  Op
	X   Expr
}

// Binary is `x OP y`.
type Binary struct {
	Pos  Pos // the operator
	Op   Op
	X, Y Expr
}

// Cond is `if C then A else B`.
type Cond struct {
	Pos            Pos
	If, Then, Else Expr
}

// Call is `f(args)`: a built-in or user function, or a reference step such
// as `processor(1)` or `link(0)`.
type Call struct {
	Pos  Pos
	Fn   Expr // *Ident or *Select
	Args []Expr
}

// Select is `x.name`.
type Select struct {
	Pos  Pos // the name
	X    Expr
	Name string
}

// Sum is `sum(VAR in FROM .. TO, BODY)`, over an inclusive integer range.
type Sum struct {
	Pos      Pos
	Var      string
	From, To Expr
	Body     Expr
}

func (e *NumberLit) ExprPos() Pos { return e.Pos }
func (e *StringLit) ExprPos() Pos { return e.Pos }
func (e *BoolLit) ExprPos() Pos   { return e.Pos }
func (e *Ident) ExprPos() Pos     { return e.Pos }
func (e *Unary) ExprPos() Pos     { return e.Pos }
func (e *Binary) ExprPos() Pos    { return e.Pos }
func (e *Cond) ExprPos() Pos      { return e.Pos }
func (e *Call) ExprPos() Pos      { return e.Pos }
func (e *Select) ExprPos() Pos    { return e.Pos }
func (e *Sum) ExprPos() Pos       { return e.Pos }
func (e *NamedArg) ExprPos() Pos  { return e.Pos }

// Start is where an expression's text begins: a binary expression's Pos is
// its operator, a selection's its name.
func Start(e Expr) Pos {
	for {
		switch x := e.(type) {
		case *Binary:
			e = x.X
		case *Select:
			e = x.X
		case *Call:
			e = x.Fn
		default:
			return e.ExprPos()
		}
	}
}

// End is the position just past an expression's text, for ranges; the zero
// Pos when the expression has no source. A call ends at its closing
// parenthesis when only blanks stand before it.
func End(e Expr) Pos {
	p := e.ExprPos()
	if p.Src == nil || !p.IsValid() {
		return Pos{}
	}
	text := p.Src.Text
	switch x := e.(type) {
	case *Ident:
		return advance(p, len(x.Name))
	case *NumberLit:
		return advance(p, len(x.Text))
	case *BoolLit:
		return advance(p, len(x.Text))
	case *StringLit:
		// The literal as written: up to the closing quote, past escapes.
		i := p.Offset
		if i >= len(text) || text[i] != '"' {
			return advance(p, len(x.Value))
		}
		for i++; i < len(text) && text[i] != '"' && text[i] != '\n'; i++ {
			if text[i] == '\\' {
				i++
			}
		}
		return p.Src.PosAt(min(i+1, len(text)))
	case *Select:
		return advance(p, len(x.Name))
	case *Unary:
		return End(x.X)
	case *Binary:
		return End(x.Y)
	case *Cond:
		return End(x.Else)
	case *Call:
		if end, ok := closingParen(End(x.Fn)); ok {
			return end
		}
		last := End(x.Fn)
		if n := len(x.Args); n > 0 {
			last = End(x.Args[n-1])
		}
		return pastParen(last)
	case *Sum:
		return pastParen(End(x.Body))
	case *NamedArg:
		return End(x.X)
	}
	return Pos{}
}

// advance is p moved n bytes on, within its source.
func advance(p Pos, n int) Pos {
	if p.Offset+n > len(p.Src.Text) {
		return Pos{}
	}
	return p.Src.PosAt(p.Offset + n)
}

// closingParen returns the position past the ")" that closes the "("
// following p after blanks: a call's end, which the end of its last
// argument misses when that argument is in parentheses of its own (the
// AST keeps no parentheses). Strings and comments are skipped.
func closingParen(p Pos) (Pos, bool) {
	if p.Src == nil {
		return p, false
	}
	text := p.Src.Text
	i := p.Offset
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {
		i++
	}
	if i >= len(text) || text[i] != '(' {
		return p, false
	}
	if _, end := Brackets(text, i, '(', ')'); end >= 0 {
		return p.Src.PosAt(end + 1), true
	}
	return p, false
}

// Brackets returns the offsets in text of the first open bracket at or
// after i and of the close bracket that matches it, skipping strings and
// comments, or -1, -1 (no open bracket, no match, or a close bracket
// first).
func Brackets(text string, i int, open, close byte) (int, int) {
	at, depth := -1, 0
	for ; i < len(text); i++ {
		if j := SkipLiteral(text, i); j != i {
			i = j
			continue
		}
		switch c := text[i]; {
		case c == open:
			if at < 0 {
				at = i
			}
			depth++
		case c == close:
			if depth--; depth == 0 && at >= 0 {
				return at, i
			}
			if depth < 0 {
				return -1, -1
			}
		}
	}
	return -1, -1
}

// SkipLiteral returns, when a string or a comment starts at offset i of
// text, the offset of its last byte: a string's closing quote (or the end
// of its line, or of the text, when it is not closed) or the newline that
// ends a comment (or the end of the text); otherwise i. A scan for
// brackets or braces calls it to step over what may hold them as text.
func SkipLiteral(text string, i int) int {
	switch c := text[i]; {
	case c == '"':
		for i++; i < len(text) && text[i] != '"' && text[i] != '\n'; i++ {
			if text[i] == '\\' {
				i++
			}
		}
		return min(i, len(text))
	case c == '#' || c == '/' && i+1 < len(text) && text[i+1] == '/':
		for i < len(text) && text[i] != '\n' {
			i++
		}
		return i
	}
	return i
}

// pastParen moves past the ")" that follows p after blanks, if one does.
func pastParen(p Pos) Pos {
	if p.Src == nil {
		return p
	}
	text := p.Src.Text
	for i := p.Offset; i < len(text); i++ {
		switch text[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case ')':
			return p.Src.PosAt(i + 1)
		}
		break
	}
	return p
}
