package lang

// The modern syntax's words and symbols, in one table each: the lexer
// reads them to tell keywords and operators from names, the formatter to
// know which names must be quoted, the REPL to complete them and the
// editor grammars' tests to hold the grammars to the language. Adding a
// keyword or an operator is one entry here.

// KeywordKind is the part a keyword plays, which is also how the editor
// grammars colour it.
type KeywordKind uint8

const (
	// Declaration words begin a statement or a part of one: machine,
	// extends, import, param, node, link, bus, program, let.
	Declaration KeywordKind = iota + 1
	// Control words shape an expression or a statement: if, then, else,
	// for, in, sum.
	Control
	// WordOperator words are operators written as words: and, or, not.
	WordOperator
	// Constant words are values: true, false.
	Constant
)

// String is the kind's name for messages and tests.
func (k KeywordKind) String() string {
	switch k {
	case Declaration:
		return "declaration"
	case Control:
		return "control"
	case WordOperator:
		return "operator"
	case Constant:
		return "constant"
	}
	return "not a keyword"
}

// keywords are the reserved words, in the order the editor grammars list
// them. Statement words (node, link, bus) are keywords so that statements
// are told apart by their first token; in expressions they still name
// references (link(0)).
var keywords = [...]struct {
	word string
	kind KeywordKind
}{
	{"if", Control}, {"then", Control}, {"else", Control},
	{"for", Control}, {"in", Control}, {"sum", Control},
	{"and", WordOperator}, {"or", WordOperator}, {"not", WordOperator},
	{"true", Constant}, {"false", Constant},
	{"machine", Declaration}, {"extends", Declaration}, {"import", Declaration},
	{"param", Declaration}, {"node", Declaration}, {"link", Declaration},
	{"bus", Declaration}, {"program", Declaration}, {"let", Declaration},
}

// longestKeyword is the length of the longest keyword.
const longestKeyword = len("extends")

// keywordsByFirst indexes keywords by first byte: the lexer asks about
// every name it reads, and one or two string comparisons are cheaper than
// hashing.
var keywordsByFirst = func() (by [256][]uint8) {
	for i, k := range keywords {
		by[k.word[0]] = append(by[k.word[0]], uint8(i))
	}
	return by
}()

// Keyword reports whether s is a reserved word, and its kind.
func Keyword(s string) (KeywordKind, bool) {
	if s == "" || len(s) > longestKeyword {
		return 0, false
	}
	for _, i := range keywordsByFirst[s[0]] {
		if keywords[i].word == s {
			return keywords[i].kind, true
		}
	}
	return 0, false
}

// IsKeyword reports whether s is a reserved word.
func IsKeyword(s string) bool {
	_, ok := Keyword(s)
	return ok
}

// Keywords lists the reserved words (a new slice, the caller's to keep).
func Keywords() []string {
	out := make([]string, len(keywords))
	for i, k := range keywords {
		out[i] = k.word
	}
	return out
}

// symbols2 are the two-character symbols; they are read before the one
// character symbols, so that `--` is not two minus signs.
var symbols2 = [...]string{"--", "..", "==", "!=", "<=", ">="}

// symbols1 are the one-character symbols.
const symbols1 = "-+*/^(){},.=<>;:[]%"

// symbolSeconds gives, for each byte, the bytes that follow it in a
// two-character symbol; symbolFirst marks the one-character symbols. The
// lexer asks about every byte that starts no name, number or string.
var symbolSeconds, symbolFirst = func() (seconds [256]string, first [256]bool) {
	for _, s := range symbols2 {
		seconds[s[0]] += s[1:]
	}
	for i := 0; i < len(symbols1); i++ {
		first[symbols1[i]] = true
	}
	return
}()

// Symbol is the length of the symbol (operator or punctuation) that s
// begins with: 2, 1, or 0 when s begins with none.
func Symbol(s string) int {
	if s == "" {
		return 0
	}
	if len(s) > 1 {
		for _, c := range []byte(symbolSeconds[s[0]]) {
			if s[1] == c {
				return 2
			}
		}
	}
	if symbolFirst[s[0]] {
		return 1
	}
	return 0
}

// Op is an operator of an expression: a Binary's or a Unary's. Sub and
// Add are both: `a - b`, `-a`.
type Op uint8

// The operators.
const (
	NoOp Op = iota
	Or
	And
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	Add
	Sub
	Mul
	Div
	Pow
	Not
)

// ops spells each operator and gives its binding strength as a binary
// operator (higher binds tighter; 0 for one that is only a prefix).
var ops = [...]struct {
	text   string
	prec   int
	prefix bool
}{
	NoOp: {"?", 0, false},
	Or:   {"or", 1, false},
	And:  {"and", 2, false},
	Eq:   {"==", 3, false},
	Ne:   {"!=", 3, false},
	Lt:   {"<", 3, false},
	Le:   {"<=", 3, false},
	Gt:   {">", 3, false},
	Ge:   {">=", 3, false},
	Add:  {"+", 4, true},
	Sub:  {"-", 4, true},
	Mul:  {"*", 5, false},
	Div:  {"/", 5, false},
	Pow:  {"^", 7, false}, // right associative, above unary minus: -2^2 = -4
	Not:  {"not", 0, true},
}

// UnaryPrecedence is the binding strength of prefix operators.
const UnaryPrecedence = 6

// String is the operator as written: "+", "<=", "and".
func (o Op) String() string {
	if int(o) < len(ops) {
		return ops[o].text
	}
	return ops[NoOp].text
}

// Precedence is the operator's binding strength as a binary operator;
// higher binds tighter, and 0 means it is not one.
func (o Op) Precedence() int {
	if int(o) < len(ops) {
		return ops[o].prec
	}
	return 0
}

// opsByFirst indexes the operators by first byte, for the parser, which
// asks after every operand whether the next token is an operator.
var opsByFirst = func() (by [256][]Op) {
	for o := Or; int(o) < len(ops); o++ {
		by[ops[o].text[0]] = append(by[ops[o].text[0]], o)
	}
	return by
}()

// BinaryOp is the binary operator spelt text (^ included).
func BinaryOp(text string) (Op, bool) {
	if text == "" {
		return NoOp, false
	}
	for _, o := range opsByFirst[text[0]] {
		if ops[o].prec > 0 && ops[o].text == text {
			return o, true
		}
	}
	return NoOp, false
}

// PrefixOp is the prefix operator spelt text: -, + or not.
func PrefixOp(text string) (Op, bool) {
	if text == "" {
		return NoOp, false
	}
	for _, o := range opsByFirst[text[0]] {
		if ops[o].prefix && ops[o].text == text {
			return o, true
		}
	}
	return NoOp, false
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
