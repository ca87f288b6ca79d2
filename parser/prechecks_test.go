package parser_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
)

// The checks that run before parsing (the format's detection, the nesting
// and length bounds) scan whole files, so they are written for speed; these
// are their plain definitions, which they must agree with.

var (
	legacyHeader = regexp.MustCompile(`(?m)^[ \t]*machinename[ \t]*=`)
	modernHeader = regexp.MustCompile(`(?m)^[ \t]*machine[ \t]+["\pL_]`)
)

func isLegacyByPattern(text string) bool {
	return legacyHeader.MatchString(text) && !modernHeader.MatchString(text)
}

// checkNestingBytewise looks at one byte at a time.
func checkNestingBytewise(src *lang.Source, text string) *lang.Diagnostic {
	wordAt := func(i, n int) bool {
		isWord := func(b byte) bool {
			return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
		}
		return (i == 0 || !isWord(text[i-1])) && (i+n >= len(text) || !isWord(text[i+n]))
	}
	depth, ifs, ops := 0, 0, 0
	inStr, inComment := false, false
	for i := 0; i < len(text); i++ {
		ch := text[i]
		if ch == '\n' {
			ops = 0
		}
		switch {
		case inComment:
			inComment = ch != '\n'
		case inStr:
			if ch == '\\' && i+1 < len(text) && text[i+1] != '\n' {
				i++
			} else if ch == '"' || ch == '\n' {
				inStr = false
			}
		case ch == '"':
			inStr = true
		case ch == '#' || ch == '/' && i+1 < len(text) && text[i+1] == '/':
			inComment = true
		case ch == '+' || ch == '-' || ch == '*' || ch == '/' || ch == '^' ||
			ch == 'n' && strings.HasPrefix(text[i:], "not") && wordAt(i, 3):
			if ops++; ops > parser.MaxTerms {
				return lang.Errorf(src.PosAt(i), "expression longer than %d terms", parser.MaxTerms)
			}
		case ch == '(' || ch == '[' || ch == '{':
			if ch == '{' {
				ops = 0
			}
			depth++
			if depth+ifs > parser.MaxNesting {
				return lang.Errorf(src.PosAt(i), "nesting deeper than %d levels", parser.MaxNesting)
			}
			if ch == '{' {
				ifs = 0
			}
		case ch == ')' || ch == ']' || ch == '}':
			depth--
			if ch == '}' {
				ifs, ops = 0, 0
			}
		case ch == ';' || ch == '=' && (i == 0 || !strings.ContainsRune("=!<>", rune(text[i-1]))) && (i+1 >= len(text) || text[i+1] != '='):
			ifs, ops = 0, 0
		case ch == 'i' && i+1 < len(text) && text[i+1] == 'f' && wordAt(i, 2):
			ifs++
			if depth+ifs > parser.MaxNesting {
				return lang.Errorf(src.PosAt(i), "conditionals nested deeper than %d levels", parser.MaxNesting)
			}
		}
	}
	return nil
}

// precheckDisagreement says how the fast checks differ from their
// definitions on text, or returns "".
func precheckDisagreement(text string) string {
	if got, want := parser.IsLegacy(text), isLegacyByPattern(text); got != want {
		return fmt.Sprintf("IsLegacy = %v, the header patterns say %v", got, want)
	}
	src := lang.NewSource("t", text)
	got, want := parser.CheckNesting(src, 0, text), checkNestingBytewise(src, text)
	if (got == nil) != (want == nil) || got != nil && (got.Pos != want.Pos || got.Msg != want.Msg) {
		return fmt.Sprintf("checkNesting says %v, byte by byte %v", got, want)
	}
	return ""
}

func TestPrechecksMatchDefinitions(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
	}
	cases := append(seedSources(t), snippets...)
	cases = append(cases,
		"machinename = \"a\"", " \tmachinename\t=", "xmachinename = 1", "machinename\n=", "machine \"m\" {}\nmachinename = 1",
		"machinename = 1\n  machine _x", "machinename = 1\nmachine\tÉ", "machinename = 1\nmachine 5", "machinename = 1\nmachine",
		"machinename = 1\nmachinemachine x", "a machine x\nmachinename=", "machinename = 1\r\nmachine x",
		deep("(", ")", 201), deep("(", ")", 200), deep("[", "]", 300), strings.Repeat("if a then ", 201)+"1",
		strings.Repeat("{", 150)+strings.Repeat("if ", 51), strings.Repeat("1+", 10_001), strings.Repeat("1+", 5_000)+"\n"+strings.Repeat("1+", 5_001),
		strings.Repeat("not ", 10_001), strings.Repeat("nothing ", 10_001), strings.Repeat("2if ", 300), strings.Repeat("- ", 10_001)+"1",
		"\""+strings.Repeat("(", 300)+"\"", "\"\\\""+strings.Repeat("(", 300), "\"a\\\n"+strings.Repeat("(", 300),
		"#"+strings.Repeat("(", 300), "//"+strings.Repeat("(", 300), "/"+strings.Repeat("(", 300), strings.Repeat("a = 1 == ", 300)+strings.Repeat("(", 201),
		strings.Repeat("x <= 1;", 10_001), "énot"+strings.Repeat(" if", 201),
	)
	for i, text := range cases {
		if d := precheckDisagreement(text); d != "" {
			t.Errorf("case %d: %s\n--- input ---\n%.300s", i, d, text)
		}
	}
}
