// Package reference is the participle grammar of the modern syntax: the
// definition of its statements, from which grammar.ebnf at the root is
// derived, and to which the hand-written parser of package parser is held
// by its tests (TestParsersAgree, FuzzParsersAgree). Only tests link it:
// the parasol binary reads files with the hand-written parser alone.
//
// The statements are participle structs (this file), turned into the lang
// AST by a converter (convert.go). The tokens, the Expr production and the
// few rules a statement shares with the hand-written parser (what a
// program statement may be, a link's label, a quoted name) are that
// parser's own, handed over as a Syntax: the reference defines how
// statements are put together from them. The package imports nothing of
// parser, so that parser's own tests can import it.
package reference

import (
	"errors"
	"regexp"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/parasol-lang/parasol/lang"
)

// Syntax is what the grammar takes from the hand-written parser.
type Syntax struct {
	// Scan reads the token at the start of rest, which is not white
	// space: its kind and length, or a message for a lexical error.
	Scan func(rest string) (kind Kind, n int, msg string)
	// Expr parses the expression that starts at byte offset off of src;
	// named allows named arguments in its outermost call (to: 3).
	Expr func(src *lang.Source, off int, named bool) Expr
	// Check refuses a source, before it is parsed, whose nesting would
	// make a recursive-descent parser recurse without bound.
	Check func(src *lang.Source) *lang.Diagnostic
	// Call checks that a program statement's expression is a call, which
	// is all such a statement may be.
	Call func(e lang.Expr) (*lang.Call, *lang.Diagnostic)
	// LinkLabel is the label of `link LABEL { … }` written as a, or "".
	LinkLabel func(a lang.Expr) string
	// Unquote is the name a String or Ident token stands for.
	Unquote func(text string) string
}

// Kind is a token's kind, as Syntax.Scan reports it.
type Kind uint8

// The kinds of token.
const (
	Comment Kind = iota + 1
	String
	Number
	Keyword
	Ident
	Punct
)

// Expr is what Syntax.Expr read.
type Expr struct {
	// OK is false when the text at the offset does not start an
	// expression (the production does not match).
	OK bool
	// X is the expression, nil after a syntax error.
	X lang.Expr
	// ErrOffset and ErrMsg are the syntax error when X is nil.
	ErrOffset int
	ErrMsg    string
	// End is the offset of the first token after the expression: after a
	// syntax error, of the first token the parser did not skip over.
	End int
}

type gFile struct {
	Stmts []*gTop `parser:"@@*"`
}

// gTop is a statement at the top level of a file, where programs stand.
type gTop struct {
	Program *gProgram `parser:"  @@"`
	Stmt    *gStmt    `parser:"| @@"`
}

// gProgram is `program NAME [(params)] { body }`.
type gProgram struct {
	Pos    lexer.Position
	Name   *gIdent      `parser:"\"program\" @@"`
	Params *gPParamList `parser:"@@?"`
	Body   []*gPStmt    `parser:"\"{\" @@*"`
	Close  *gClose      `parser:"@@"`
}

// gIdent is a name, a struct of its own for its position.
type gIdent struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

type gPParamList struct {
	Params []*gPParam `parser:"\"(\" (@@ (\",\" @@)*)? \")\""`
}

// gPParam is a program's parameter: a unit and a default are optional.
type gPParam struct {
	Pos     lexer.Position
	Name    string    `parser:"@Ident"`
	Unit    string    `parser:"(\":\" @(Ident | \"%\" | Number))?"`
	Default lang.Expr `parser:"(\"=\" @@)?"`
}

// gPStmt is a statement of a program's body.
type gPStmt struct {
	Let  *gLet  `parser:"  @@"`
	For  *gPFor `parser:"| @@"`
	If   *gPIf  `parser:"| @@"`
	Do   call   `parser:"| @@"`
	Semi bool   `parser:"| @\";\""`
}

type gLet struct {
	Pos   lexer.Position
	Name  string `parser:"\"let\" @Ident \"=\""`
	Value value  `parser:"@@"`
}

type gPFor struct {
	Pos  lexer.Position
	Var  string    `parser:"\"for\" @Ident \"in\""`
	From lang.Expr `parser:"@@ \"..\""`
	To   lang.Expr `parser:"@@"`
	Body []*gPStmt `parser:"\"{\" @@* \"}\""`
}

type gPIf struct {
	Pos  lexer.Position
	Cond lang.Expr `parser:"\"if\" @@"`
	Then []*gPStmt `parser:"\"{\" @@* \"}\""`
	Else *gPElse   `parser:"(\"else\" @@)?"`
}

type gPElse struct {
	If   *gPIf     `parser:"  @@"`
	Body []*gPStmt `parser:"| \"{\" @@* \"}\""`
}

// call is the production of a program's statement call, and value of a
// let's value: expressions (read by Syntax.Expr, as Expr is) whose
// outermost call may have named arguments, `send(8KB, to: 3)`. A statement
// call starts with a name. (participle names the productions Call and
// Value in grammar.ebnf.)
type (
	call  interface{ lang.Expr }
	value interface{ lang.Expr }
)

type gStmt struct {
	Decl    *gDecl    `parser:"  @@"`
	Link    *gLink    `parser:"| @@"`
	Param   *gParam2  `parser:"| \"param\" @@"`
	Node    *gNode    `parser:"| @@"`
	For     *gFor     `parser:"| @@"`
	If      *gIf      `parser:"| @@"`
	Bus     *gBus     `parser:"| @@"`
	Machine *gMachine `parser:"| @@"`
	Import  *gImport  `parser:"| @@"`
	Semi    bool      `parser:"| @\";\""`
}

type gMachine struct {
	Pos     lexer.Position
	Name    string   `parser:"\"machine\" @(String | Ident)"`
	Extends *gName   `parser:"(\"extends\" @@)?"`
	Body    []*gStmt `parser:"\"{\" @@*"`
	Close   *gClose  `parser:"@@"`
}

// gClose is a block's closing brace; its position ends the block.
type gClose struct {
	Pos   lexer.Position
	Brace string `parser:"@\"}\""`
}

type gName struct {
	Pos  lexer.Position
	Name string `parser:"@(String | Ident)"`
}

type gImport struct {
	Pos  lexer.Position
	Path string `parser:"\"import\" @String"`
}

type gFor struct {
	Pos  lexer.Position
	Var  string    `parser:"\"for\" @Ident \"in\""`
	From lang.Expr `parser:"@@ \"..\""`
	To   lang.Expr `parser:"@@"`
	Body []*gStmt  `parser:"\"{\" @@* \"}\""`
}

type gIf struct {
	Pos  lexer.Position
	Cond lang.Expr `parser:"\"if\" @@"`
	Then []*gStmt  `parser:"\"{\" @@* \"}\""`
	Else *gElse    `parser:"(\"else\" @@)?"`
}

type gElse struct {
	If   *gIf     `parser:"  @@"`
	Body []*gStmt `parser:"| \"{\" @@* \"}\""`
}

// gNode is `node FROM [.. TO] = TYPE`, or the topology field `node = TYPE`.
type gNode struct {
	Pos  lexer.Position
	From lang.Expr `parser:"\"node\" @@?"`
	To   lang.Expr `parser:"(\"..\" @@)?"`
	Type *gType    `parser:"\"=\" @@"`
}

// gType is a node's processor or switch type; participle fills only
// fields named Pos, so the type is a struct of its own to have one.
type gType struct {
	Pos  lexer.Position
	Name string `parser:"@(Ident | Number | String)"`
}

// gLink is a link template `link(d) { … }`, a link `link A -- B { … }`, or
// a numbered link block `link 0 { … }` (what Parasol I files import to).
type gLink struct {
	Pos    lexer.Position
	Params *gParamList `parser:"\"link\" ( @@"`
	A      lang.Expr   `parser:"        | @@ "`
	B      lang.Expr   `parser:"          (\"--\" @@)? )"`
	Body   *gBody      `parser:"@@?"`
}

type gBus struct {
	Pos  lexer.Position
	Ends []lang.Expr `parser:"\"bus\" @@ (\",\" @@)+"`
	Body []*gStmt    `parser:"(\"{\" @@* \"}\")?"`
}

// gParam2 is `param NAME = VALUE`; a param may be named by a statement word
// (`param link = 20Mbit/s`, as seed 003's tables call the link speed).
type gParam2 struct {
	Pos   lexer.Position
	Name  string    `parser:"@(Ident | String | \"link\" | \"node\" | \"bus\")"`
	Value lang.Expr `parser:"\"=\" @@"`
}

// gDecl is a field, a function or a block; which one follows from what is
// present (convert.go): a body makes a block, otherwise `= value` a field,
// with parameters a function.
type gDecl struct {
	Pos    lexer.Position
	Name   string      `parser:"@(Ident | String)"`
	Label  *gLabel     `parser:"@@?"`
	Params *gParamList `parser:"@@?"`
	Value  lang.Expr   `parser:"(\"=\" @@)?"`
	Body   *gBody      `parser:"@@?"`
}

// gLabel is a block's label, a struct of its own for its position.
type gLabel struct {
	Pos  lexer.Position
	Text string `parser:"@(Ident | Number | String | \"node\" | \"link\" | \"bus\")"`
}

type gBody struct {
	Stmts []*gStmt `parser:"\"{\" @@*"`
	Close *gClose  `parser:"@@"`
}

type gParamList struct {
	Pos    lexer.Position
	Params []*gParam `parser:"\"(\" (@@ (\",\" @@)*)? \")\""`
}

type gParam struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
	Unit string `parser:"(\":\" @(Ident | \"%\" | Number))?"`
}

// gExprOnly parses a single expression (queries, --set values, Parasol I values).
type gExprOnly struct {
	X lang.Expr `parser:"@@"`
}

// Grammar parses the modern syntax with the participle grammar over a
// Syntax. One parse runs at a time.
type Grammar struct {
	syn  Syntax
	file *participle.Parser[gFile]
	expr *participle.Parser[gExprOnly]

	mu  sync.Mutex
	src *lang.Source // being parsed, for the Expr production
}

// New builds the grammar over syn.
func New(syn Syntax) *Grammar {
	g := &Grammar{syn: syn}
	options := []participle.Option{
		participle.Lexer(lexDef{scan: syn.Scan}),
		participle.Elide("Comment"),
		participle.UseLookahead(1), // the grammar is LL(1): errors stay where they are
		participle.ParseTypeWith(g.parseExpr),
		participle.ParseTypeWith(g.parseCall),
		participle.ParseTypeWith(g.parseValue),
	}
	g.file, g.expr = participle.MustBuild[gFile](options...), participle.MustBuild[gExprOnly](options...)
	return g
}

// EBNF returns the grammar of the modern statements as participle derives
// it from the structs; grammar.ebnf is kept equal to it by a test.
func EBNF() string { return New(Syntax{}).file.String() }

// parseExpr is the Expr production, registered with participle's
// ParseTypeWith: Syntax.Expr reads the expression from the source at the
// next token, and participle's tokens are skipped up to its end.
func (g *Grammar) parseExpr(lex *lexer.PeekingLexer) (lang.Expr, error) {
	return g.read(lex, false)
}

// parseCall is the Call production: a program's statement call.
func (g *Grammar) parseCall(lex *lexer.PeekingLexer) (call, error) {
	if lex.Peek().Type != tokIdent {
		return nil, participle.NextMatch
	}
	return g.read(lex, true)
}

// parseValue is the Value production: a let's value.
func (g *Grammar) parseValue(lex *lexer.PeekingLexer) (value, error) { return g.read(lex, true) }

// read parses the expression at lex's next token; named allows named
// arguments in its outermost call.
func (g *Grammar) read(lex *lexer.PeekingLexer, named bool) (lang.Expr, error) {
	start := lex.Peek().Pos.Offset
	x := g.syn.Expr(g.src, start, named)
	if !x.OK {
		return nil, participle.NextMatch
	}
	for t := lex.Peek(); !t.EOF() && t.Pos.Offset < x.End; t = lex.Peek() {
		lex.Next()
	}
	if x.X == nil {
		return &badExpr{pos: g.src.PosAt(start), errOffset: x.ErrOffset, msg: x.ErrMsg}, nil
	}
	return x.X, nil
}

// badExpr stands for an expression with a syntax error. The expression
// parser skips to the end of the line and goes on, so participle does not
// backtrack over the error; the converter reports it.
type badExpr struct {
	pos       lang.Pos
	errOffset int
	msg       string
}

func (b *badExpr) ExprPos() lang.Pos { return b.pos }

// ParseFile parses the modern syntax, stopping at the first syntax error:
// the definition the hand-written parser is tested against.
func (g *Grammar) ParseFile(src *lang.Source) (*lang.File, error) {
	if d := g.syn.Check(src); d != nil {
		return nil, d
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.src = src
	gf, err := g.file.ParseString(src.Name, src.Text)
	if err != nil {
		return nil, syntaxError(src, err)
	}
	c := &converter{src: src, syn: g.syn}
	f := &lang.File{Src: src, Stmts: c.top(gf.Stmts), Comments: g.comments(src)}
	if len(c.errs) > 0 {
		return f, c.errs.Err()
	}
	return f, nil
}

// ParseExpr parses one expression.
func (g *Grammar) ParseExpr(src *lang.Source) (lang.Expr, error) {
	if d := g.syn.Check(src); d != nil {
		return nil, d
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.src = src
	gx, err := g.expr.ParseString(src.Name, src.Text)
	if err != nil {
		return nil, syntaxError(src, err)
	}
	c := &converter{src: src, syn: g.syn}
	e := c.expr(gx.X)
	if len(c.errs) > 0 {
		return e, c.errs.Err()
	}
	return e, nil
}

// comments lists the comments of a source, which participle elides.
func (g *Grammar) comments(src *lang.Source) []*lang.Comment {
	var out []*lang.Comment
	text := src.Text
	for i := 0; i < len(text); {
		if c := text[i]; c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			i++
			continue
		}
		kind, n, msg := g.syn.Scan(text[i:])
		if msg == "" && kind == Comment {
			out = append(out, &lang.Comment{Pos: src.PosAt(i), Text: strings.TrimRight(text[i:i+n], " \t\r")})
		}
		i += n
	}
	return out
}

// grammarNames says in words what a grammar rule is.
var grammarNames = map[string]string{
	"GPostfix": "an expression", "GExpr": "an expression", "GUnary": "an expression",
	"GStmt": "a statement", "GField": "a field", "GParam": "a parameter name",
	"GBlock": "a block", "GName": "a name", "GArgs": "arguments", "GClose": "'}'",
}

var grammarRef = regexp.MustCompile(`\bG[A-Z][A-Za-z]*\b`)

// syntaxError turns participle's error into a diagnostic.
func syntaxError(src *lang.Source, err error) *lang.Diagnostic {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return lang.Errorf(src.PosAt(0), "%v", err)
	}
	pos := src.PosAt(perr.Position().Offset)
	msg := perr.Message()
	msg = strings.ReplaceAll(msg, `"}"`, "'}'")
	msg = grammarRef.ReplaceAllStringFunc(msg, func(g string) string {
		if w, ok := grammarNames[g]; ok {
			return w
		}
		return "more input"
	})
	if strings.HasPrefix(msg, "unexpected token \"<EOF>\"") {
		msg = "unexpected end of input" + strings.TrimPrefix(msg, "unexpected token \"<EOF>\"")
	}
	return lang.Errorf(pos, "syntax error: %s", msg)
}
