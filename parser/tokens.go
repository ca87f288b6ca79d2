package parser

// TokenKind is the kind of a token of the modern syntax, as an editor
// colours it (the language server's semantic tokens).
type TokenKind uint8

// The kinds of token Tokens reports.
const (
	TokenString  TokenKind = iota + 1
	TokenNumber            // with its unit: 20ns, 1GB/s
	TokenKeyword           // a word of lang's keyword table
	TokenIdent
	TokenPunct // an operator or a bracket of lang's symbol table
	TokenComment
	TokenError // what the lexer does not read: an unterminated string, a stray character
)

// tokenKinds maps the scanner's kinds to the exported ones.
var tokenKinds = [...]TokenKind{kString: TokenString, kNumber: TokenNumber, kKeyword: TokenKeyword,
	kIdent: TokenIdent, kPunct: TokenPunct, kComment: TokenComment, kError: TokenError}

// Tokens calls f with each token of text in order, comments included:
// its kind, byte offset and length in bytes. It reads text with the
// parser's own scanner, so an editor colours what the parser reads.
func Tokens(text string, f func(kind TokenKind, off, n int)) {
	for i := 0; i < len(text); {
		if c := text[i]; c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			i++
			continue
		}
		kind, n, _ := scanToken(text[i:])
		n = max(n, 1)
		f(tokenKinds[kind], i, n)
		i += n
	}
}
