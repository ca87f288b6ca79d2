package lsp

import (
	"slices"
	"sync"
	"unicode/utf16"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Semantic tokens colour a modern file as the parser reads it
// (parser.Tokens, over lang's keyword and symbol tables): keywords, word
// operators, numbers with their units, strings, comments, and names as
// what they are where they stand: a block's kind, a function called, a
// field set or selected, a word a topology field takes, any other name.
// Parasol I files have none: their grammar colours them.

// tokenTypes is the legend: a token's type is its index here.
var tokenTypes = []string{"keyword", "operator", "number", "string", "comment", "variable", "function", "property", "enumMember"}

const (
	tKeyword = iota
	tOperator
	tNumber
	tString
	tComment
	tVariable
	tFunction
	tProperty
	tEnumMember
)

// legend is what initialize advertises.
func legend() protocol.SemanticTokensOptions {
	return protocol.SemanticTokensOptions{Legend: protocol.SemanticTokensLegend{TokenTypes: tokenTypes, TokenModifiers: []string{}}, Full: true}
}

// tok is one token with its type.
type tok struct{ off, n, typ int }

// semanticTokens encodes the document's tokens as the protocol wants
// them: five numbers a token, its line and start relative to the token
// before, its length (in UTF-16 units), its type and no modifiers.
func (d *document) semanticTokens() *protocol.SemanticTokens {
	out := &protocol.SemanticTokens{Data: []protocol.UInteger{}}
	if d.file != nil && d.file.Legacy || d.file == nil && parser.IsLegacy(d.text) {
		return out
	}
	var prev protocol.Position
	for _, t := range classify(d.text) {
		p := d.lines.position(d.text, t.off)
		n := 0
		for _, r := range d.text[t.off : t.off+t.n] {
			n += utf16.RuneLen(r)
		}
		dl, dc := p.Line-prev.Line, p.Character
		if dl == 0 {
			dc = p.Character - prev.Character
		}
		out.Data = append(out.Data, dl, dc, protocol.UInteger(n), protocol.UInteger(t.typ), 0)
		prev = p
	}
	return out
}

// enumFields are the fields whose value is a word of the registry;
// listed when first asked for, not at every parasol command's start.
var enumFields = sync.OnceValue(func() []string {
	var out []string
	for _, kind := range eval.BlockKinds() {
		for _, f := range eval.FieldsOf(kind) {
			if len(f.Enum) > 0 && !slices.Contains(out, f.Name) {
				out = append(out, f.Name)
			}
		}
	}
	return out
})

// classify gives each token of text its type, from the tokens around it.
func classify(text string) []tok {
	type raw struct {
		kind   parser.TokenKind
		off, n int
	}
	var all []raw
	parser.Tokens(text, func(kind parser.TokenKind, off, n int) {
		if kind != parser.TokenComment {
			all = append(all, raw{kind, off, n})
		}
	})
	blockKinds := eval.BlockKinds()
	var out []tok
	word := func(i int) string { return text[all[i].off : all[i].off+all[i].n] }
	is := func(i int, s string) bool {
		return i >= 0 && i < len(all) && all[i].kind == parser.TokenPunct && word(i) == s
	}
	lineStart := func(i int) bool {
		if i == 0 {
			return true
		}
		for j := all[i-1].off + all[i-1].n; j < all[i].off; j++ {
			if text[j] == '\n' {
				return true
			}
		}
		return is(i-1, "{") || is(i-1, "}") || is(i-1, ";")
	}
	for i, r := range all {
		typ := -1
		switch r.kind {
		case parser.TokenString:
			typ = tString
		case parser.TokenNumber:
			typ = tNumber
		case parser.TokenKeyword:
			typ = tKeyword
			if k, _ := lang.Keyword(word(i)); k == lang.WordOperator {
				typ = tOperator
			}
		case parser.TokenIdent:
			w := word(i)
			switch {
			case lineStart(i) && slices.Contains(blockKinds, w) && !is(i+1, "="):
				typ = tKeyword
			case is(i+1, "("):
				typ = tFunction
			case is(i-1, "."), lineStart(i) && is(i+1, "="):
				typ = tProperty
			case is(i-1, "=") && i >= 2 && all[i-2].kind == parser.TokenIdent && slices.Contains(enumFields(), word(i-2)):
				typ = tEnumMember
			default:
				typ = tVariable
			}
		}
		if typ >= 0 {
			out = append(out, tok{r.off, r.n, typ})
		}
	}
	// Comments, in order among the rest.
	parser.Tokens(text, func(kind parser.TokenKind, off, n int) {
		if kind == parser.TokenComment {
			out = append(out, tok{off, n, tComment})
		}
	})
	slices.SortFunc(out, func(a, b tok) int { return a.off - b.off })
	return out
}
