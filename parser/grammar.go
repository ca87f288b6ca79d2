package parser

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/parasol-lang/parasol/lang"
)

// The participle grammar of the modern syntax's statements. These structs
// are concrete syntax; convert.go turns them into the lang AST. Statements
// are chosen by their first token, so the parser does not backtrack;
// expressions (the Expr production) are parsed by expr.go.

type gFile struct {
	Stmts []*gStmt `parser:"@@*"`
}

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
	Pos     lexer.Position
	From    lang.Expr `parser:"\"node\" @@?"`
	To      lang.Expr `parser:"(\"..\" @@)?"`
	TypePos lexer.Position
	Type    string `parser:"\"=\" @(Ident | Number | String)"`
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
	Pos      lexer.Position
	Name     string `parser:"@(Ident | String)"`
	LabelPos lexer.Position
	Label    string      `parser:"@(Ident | Number | String | \"node\" | \"link\" | \"bus\")?"`
	Params   *gParamList `parser:"@@?"`
	Value    lang.Expr   `parser:"(\"=\" @@)?"`
	Body     *gBody      `parser:"@@?"`
}

type gBody struct {
	Stmts []*gStmt `parser:"\"{\" @@*"`
	Close *gClose  `parser:"@@"`
}

type gParamList struct {
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

var (
	options = []participle.Option{
		participle.Lexer(modernLexer),
		participle.Elide("Comment"),
		participle.UseLookahead(1), // the grammar is LL(1): errors stay where they are
		participle.ParseTypeWith(parseExpr),
	}
	fileParser = participle.MustBuild[gFile](options...)
	exprParser = participle.MustBuild[gExprOnly](options...)
)

// EBNF returns the grammar of the modern statements as participle derives
// it from the parser; grammar.ebnf is kept equal to it by a test.
func EBNF() string { return fileParser.String() }
