package parser

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar of the modern syntax. These structs are the
// concrete syntax; convert.go turns them into the lang AST. Binary operators
// and prefix operators are flat lists, so nesting depth is bounded by
// brackets and conditionals alone (see guard.go).

var modernLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `(?:#|//)[^\n]*`},
	{Name: "String", Pattern: `"(?:\\.|[^"\\\n])*"`},
	{Name: "Number", Pattern: `(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?(?:%|[A-Za-zµμ]+(?:/s)?)?`},
	{Name: "Keyword", Pattern: `\b(?:machine|extends|import|param|if|then|else|for|in|and|or|not|true|false|sum)\b`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Punct", Pattern: `--|\.\.|==|!=|<=|>=|[-+*/^(){},.=<>;:\[\]]`},
	{Name: "Whitespace", Pattern: `[ \t\r\n]+`},
})

type gFile struct {
	Stmts []*gStmt `parser:"@@*"`
}

type gStmt struct {
	Machine *gMachine `parser:"  @@"`
	Import  *gImport  `parser:"| @@"`
	For     *gFor     `parser:"| @@"`
	If      *gIf      `parser:"| @@"`
	Node    *gNode    `parser:"| @@"`
	Link    *gLink    `parser:"| @@"`
	Bus     *gBus     `parser:"| @@"`
	Param   *gField   `parser:"| \"param\" @@"`
	Block   *gBlock   `parser:"| @@"`
	Field   *gField   `parser:"| @@"`
	Semi    bool      `parser:"| @\";\""`
}

type gMachine struct {
	Pos     lexer.Position
	Name    string   `parser:"\"machine\" @(String | Ident)"`
	Extends *gName   `parser:"(\"extends\" @@)?"`
	Body    []*gStmt `parser:"\"{\" @@*"`
	End     lexer.Position
	Close   string `parser:"@\"}\""`
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
	Var  string   `parser:"\"for\" @Ident \"in\""`
	From *gExpr   `parser:"@@ \"..\""`
	To   *gExpr   `parser:"@@"`
	Body []*gStmt `parser:"\"{\" @@* \"}\""`
}

type gIf struct {
	Pos  lexer.Position
	Cond *gExpr   `parser:"\"if\" @@"`
	Then []*gStmt `parser:"\"{\" @@* \"}\""`
	Else *gElse   `parser:"(\"else\" @@)?"`
}

type gElse struct {
	If   *gIf     `parser:"  @@"`
	Body []*gStmt `parser:"| \"{\" @@* \"}\""`
}

type gNode struct {
	Pos     lexer.Position
	From    *gExpr `parser:"\"node\" @@"`
	To      *gExpr `parser:"(\"..\" @@)?"`
	TypePos lexer.Position
	Type    string `parser:"\"=\" @(Ident | Number | String)"`
}

type gLink struct {
	Pos  lexer.Position
	A    *gExpr   `parser:"\"link\" @@"`
	B    *gExpr   `parser:"\"--\" @@"`
	Body []*gStmt `parser:"(\"{\" @@* \"}\")?"`
}

type gBus struct {
	Pos  lexer.Position
	Ends []*gExpr `parser:"\"bus\" @@ (\",\" @@)+"`
	Body []*gStmt `parser:"(\"{\" @@* \"}\")?"`
}

type gField struct {
	Pos    lexer.Position
	Name   string    `parser:"@(Ident | String)"`
	Func   bool      `parser:"( @\"(\""`
	Params []*gParam `parser:"  (@@ (\",\" @@)*)? \")\" )?"`
	Value  *gExpr    `parser:"\"=\" @@"`
}

type gParam struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
	Unit string `parser:"(\":\" @(Ident | \"%\"))?"`
}

type gBlock struct {
	Pos      lexer.Position
	Kind     string `parser:"@Ident"`
	LabelPos lexer.Position
	Label    string      `parser:"@(Ident | Number | String)?"`
	Gen      *gPostfix   `parser:"(\"=\" @@)?"`
	Params   *gParamList `parser:"@@?"`
	Body     []*gStmt    `parser:"\"{\" @@*"`
	End      lexer.Position
	Close    string `parser:"@\"}\""`
}

type gParamList struct {
	Params []*gParam `parser:"\"(\" (@@ (\",\" @@)*)? \")\""`
}

type gExpr struct {
	Pos  lexer.Position
	Cond *gCond `parser:"  @@"`
	Bin  *gBin  `parser:"| @@"`
}

type gCond struct {
	If   *gExpr `parser:"\"if\" @@"`
	Then *gExpr `parser:"\"then\" @@"`
	Else *gExpr `parser:"\"else\" @@"`
}

type gBin struct {
	Head *gUnary   `parser:"@@"`
	Tail []*gOpArg `parser:"@@*"`
}

type gOpArg struct {
	Pos lexer.Position
	Op  string  `parser:"@(\"+\" | \"-\" | \"*\" | \"/\" | \"^\" | \"==\" | \"!=\" | \"<=\" | \">=\" | \"<\" | \">\" | \"and\" | \"or\")"`
	X   *gUnary `parser:"@@"`
}

type gUnary struct {
	Pos lexer.Position
	Ops []*gPrefix `parser:"@@*"`
	X   *gPostfix  `parser:"@@"`
}

type gPrefix struct {
	Pos lexer.Position
	Op  string `parser:"@(\"-\" | \"+\" | \"not\")"`
}

type gPostfix struct {
	Pos    lexer.Position
	X      *gPrimary  `parser:"@@"`
	Suffix []*gSuffix `parser:"@@*"`
}

type gSuffix struct {
	Pos  lexer.Position
	Call *gArgs `parser:"  \"(\" @@ \")\""`
	Sel  string `parser:"| \".\" @(Ident | String)"`
}

type gArgs struct {
	Args []*gExpr `parser:"(@@ (\",\" @@)*)?"`
}

type gPrimary struct {
	Pos    lexer.Position
	Number string  `parser:"  @Number"`
	String *string `parser:"| @String"`
	Sum    *gSum   `parser:"| @@"`
	Bool   string  `parser:"| @(\"true\" | \"false\")"`
	Ident  string  `parser:"| @Ident"`
	Paren  *gExpr  `parser:"| \"(\" @@ \")\""`
}

type gSum struct {
	Var  string `parser:"\"sum\" \"(\" @Ident \"in\""`
	From *gExpr `parser:"@@ \"..\""`
	To   *gExpr `parser:"@@ \",\""`
	Body *gExpr `parser:"@@ \")\""`
}

// gExprOnly parses a single expression (queries, --set values, Parasol I values).
type gExprOnly struct {
	X *gExpr `parser:"@@"`
}

// gInput is a REPL entry: statements, or one expression.
type gInput struct {
	Stmts []*gStmt `parser:"  @@+"`
}

var (
	fileParser = participle.MustBuild[gFile](
		participle.Lexer(modernLexer),
		participle.Elide("Whitespace", "Comment"),
		participle.UseLookahead(64),
	)
	exprParser = participle.MustBuild[gExprOnly](
		participle.Lexer(modernLexer),
		participle.Elide("Whitespace", "Comment"),
		participle.UseLookahead(64),
	)
)

// EBNF returns the grammar of the modern syntax as participle derives it
// from the parser; grammar.ebnf is kept equal to it by a test.
func EBNF() string { return fileParser.String() }
