package parser

import (
	"errors"
	"regexp"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/parasol-lang/parasol/lang"
)

// The participle grammar of the modern syntax's statements: the reference
// definition of the syntax, from which grammar.ebnf is derived, and which
// the hand-written parser (statements.go) is held to by TestParsersAgree
// and FuzzParsersAgree. These structs are concrete syntax; convert.go
// turns them into the lang AST. Statements are chosen by their first
// token; expressions (the Expr production) are parsed by expr.go.

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
	Do   Call   `parser:"| @@"`
	Semi bool   `parser:"| @\";\""`
}

type gLet struct {
	Pos   lexer.Position
	Name  string `parser:"\"let\" @Ident \"=\""`
	Value Value  `parser:"@@"`
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

// Call is the production of a program's statement call, and Value of a
// let's value: expressions (parsed by expr.go, as Expr is) whose outermost
// call may have named arguments, `send(8KB, to: 3)`. A statement call
// starts with a name.
type (
	Call  interface{ lang.Expr }
	Value interface{ lang.Expr }
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

// referenceParsers builds the participle parsers on first use: only tests
// and EBNF need them, and building them costs every program that imports
// this package half a megabyte at start-up.
var referenceParsers = sync.OnceValues(func() (*participle.Parser[gFile], *participle.Parser[gExprOnly]) {
	options := []participle.Option{
		participle.Lexer(modernLexer),
		participle.Elide("Comment"),
		participle.UseLookahead(1), // the grammar is LL(1): errors stay where they are
		participle.ParseTypeWith(parseExpr),
		participle.ParseTypeWith(parseCall),
		participle.ParseTypeWith(parseValue),
	}
	return participle.MustBuild[gFile](options...), participle.MustBuild[gExprOnly](options...)
})

// EBNF returns the grammar of the modern statements as participle derives
// it from the parser; grammar.ebnf is kept equal to it by a test.
func EBNF() string {
	fileParser, _ := referenceParsers()
	return fileParser.String()
}

// parseExpr is the Expr production of the reference grammar, registered
// with participle's ParseTypeWith: the hand-written expression parser over
// participle's tokens. Nodes carry only byte offsets; the converter fills
// in full positions and unit values.
func parseExpr(lex *lexer.PeekingLexer) (lang.Expr, error) {
	s := &tokStream{pl: lex}
	s.start()
	if !startsExpr(s.peek()) {
		return nil, participle.NextMatch
	}
	p := &xparser{s: s, a: &arena{}}
	start := s.peek()
	e, err := p.expr(1)
	if err != nil {
		return p.recover(start, err), nil
	}
	return e, nil
}

// parseCall is the Call production: a program's statement call.
func parseCall(lex *lexer.PeekingLexer) (Call, error) {
	if lex.Peek().Type != tokIdent {
		return nil, participle.NextMatch
	}
	return parseNamed(lex)
}

// parseValue is the Value production: a let's value.
func parseValue(lex *lexer.PeekingLexer) (Value, error) { return parseNamed(lex) }

// parseNamed parses an expression whose outermost call may have named
// arguments.
func parseNamed(lex *lexer.PeekingLexer) (lang.Expr, error) {
	s := &tokStream{pl: lex}
	s.start()
	if !startsExpr(s.peek()) {
		return nil, participle.NextMatch
	}
	p := &xparser{s: s, a: &arena{}, names: true}
	start := s.peek()
	e, err := p.expr(1)
	if err != nil {
		return p.recover(start, err), nil
	}
	return e, nil
}

// badExpr stands for an expression with a syntax error. The expression
// parser skips to the end of the line and goes on, so participle does not
// backtrack over the error; the converter reports it.
type badExpr struct {
	pos lang.Pos
	err *synErr
}

func (b *badExpr) ExprPos() lang.Pos { return b.pos }

// recover skips what is left of the line the error is on (not past a
// closing brace), so that parsing resumes at the next statement.
func (p *xparser) recover(start token, err *synErr) lang.Expr {
	line := err.tok.line
	if line > p.s.last.line {
		// The error opens a new line: the expression ended incomplete
		// on the line before, and this line is a statement of its own.
		return &badExpr{pos: p.s.pos(start), err: err}
	}
	for {
		t := p.s.peek()
		if t.kind == kEOF || t.line > line || t.punct("}") || t.punct(";") {
			break
		}
		p.s.next()
	}
	return &badExpr{pos: p.s.pos(start), err: err}
}

// parseReference parses the modern syntax with the participle grammar,
// stopping at the first syntax error: the definition the hand-written
// parser is tested against.
func parseReference(src *lang.Source) (*lang.File, error) {
	if d := checkNesting(src, 0, src.Text); d != nil {
		return nil, d
	}
	fileParser, _ := referenceParsers()
	g, err := fileParser.ParseString(src.Name, src.Text)
	if err != nil {
		return nil, syntaxError(src, 0, err)
	}
	c := &converter{src: src}
	f := &lang.File{Src: src, Stmts: c.top(g.Stmts), Comments: comments(src)}
	if len(c.errs) > 0 {
		return f, c.errs.Err()
	}
	return f, nil
}

// parseExprReference parses one expression with the participle grammar.
func parseExprReference(src *lang.Source) (lang.Expr, error) {
	if d := checkNesting(src, 0, src.Text); d != nil {
		return nil, d
	}
	_, exprParser := referenceParsers()
	g, err := exprParser.ParseString(src.Name, src.Text)
	if err != nil {
		return nil, syntaxError(src, 0, err)
	}
	c := &converter{src: src}
	e := c.expr(g.X)
	if len(c.errs) > 0 {
		return e, c.errs.Err()
	}
	return e, nil
}

// comments lists the comments of a modern-syntax source.
func comments(src *lang.Source) []*lang.Comment {
	var s tokStream
	s.init(src, 0, len(src.Text))
	s.collect = true
	for s.start(); s.next().kind != kEOF; {
	}
	return s.comments
}

// grammarNames says in words what a grammar rule is.
var grammarNames = map[string]string{
	"GPostfix": "an expression", "GExpr": "an expression", "GUnary": "an expression",
	"GStmt": "a statement", "GField": "a field", "GParam": "a parameter name",
	"GBlock": "a block", "GName": "a name", "GArgs": "arguments", "GClose": "'}'",
}

var grammarRef = regexp.MustCompile(`\bG[A-Z][A-Za-z]*\b`)

// syntaxError turns participle's error into a diagnostic.
func syntaxError(src *lang.Source, base int, err error) *lang.Diagnostic {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return lang.Errorf(src.PosAt(base), "%v", err)
	}
	p := perr.Position()
	pos := src.PosAt(base + p.Offset)
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
