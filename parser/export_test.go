package parser

import "github.com/parasol-lang/parasol/lang"

// The external tests compare the hand-written parsers with the participle
// reference grammar.
var (
	ParseModern        = parseModern
	ParseReference     = parseReference
	ParseExprReference = parseExprReference
)

func ParseExprSource(src *lang.Source) (lang.Expr, error) { return parseExprIn(src, 0, src.Text) }

var CheckNesting = checkNesting
