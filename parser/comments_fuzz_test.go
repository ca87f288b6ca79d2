package parser_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/parser"
)

// commentConstructs are the places where comments were once lost or
// swallowed code: after `{`, before `}`, between `}` and `else`, in empty
// bodies, in parameter lists and multi-line expressions, after the last
// line of a block and at the end of a file without a newline.
var commentConstructs = []string{
	"machine \"m\" {\n  param fast = 1\n  topology t = ring(4) {\n    if fast { # c\n    } else {\n      link 0 -- 2\n    }\n  }\n}\n",
	"machine \"m\" {\n\tparam a = 1\n\ttopology t = ring(4) {\n\t\tif a {\n\t\t\tlink 0 -- 1\n\t\t} # after then\n\t\telse {\n\t\t\tlink 1 -- 2\n\t\t}\n\t\tif a { link 0 -- 1 } else if not a { link 1 -- 2 } else { link 2 -- 3 } # c\n\t}\n}\n",
	"machine \"m\" { # m\n\tprocessor p {} # empty\n\tprocessor q {\n\t\t# alone\n\t}\n\ttopology t = ring(4) {\n\t\tfor i in 0 .. 3 {\n\t\t}\n\t\tlink 0 -- 1 {\n\t\t\tlatency = 1ns\n\t\t}\n\t\tbus 0, 1, 2 {\n\t\t}\n\t\tnode 0 .. 3 = p\n\t}\n}\n",
	"machine \"m\" {\n\tf(a,\n\t  b: B) = a + b\n\tg = 1 +\n\t    2\n\th = max(1,\n\t        2)\n\ttopology t = torus(4,\n\t                   4) {\n\t\tnode 0 ..\n\t\t  3 = p\n\t}\n\tprocessor p { clock = 1GHz }\n\tx = 1; y = 2\n}\n# end without a newline",
	"import \"base.machine\"\nparam shared = 2\nmachine \"a\" extends \"b\" {\n\tlink(d) {\n\t\tlatency = if d == 0 then 1ns else 2ns\n\t}\n\tMPI {\n\t\tsend(n: B, dst) = sum(i in 1 .. 3, i * n / 1MB/s)\n\t}\n}\n\nmachine \"b\" {}\n",
}

// FuzzCommentPlacement inserts comments into machine texts at token
// boundaries and line ends (choices picks where and how: three bytes per
// comment) and requires of every text that parses what fmt requires before
// it writes: the formatted text parses, means the same, keeps every comment
// in order, and formats to itself.
func FuzzCommentPlacement(f *testing.F) {
	for _, s := range append(seedSources(f), commentConstructs...) {
		f.Add(s, []byte{})
		f.Add(s, []byte{0, 7, 0, 1, 3, 1, 2, 9, 2, 0, 200, 3, 255, 255, 0})
	}
	f.Fuzz(func(t *testing.T, text string, choices []byte) {
		in := insertComments(text, choices)
		r := watchdog(t, in, func() result { return commentsKept(in) })
		if r.fail != "" {
			t.Fatal(r.fail)
		}
	})
}

// maxInserted bounds the comments one input gets.
const maxInserted = 16

// insertComments inserts numbered comments into text: for each three bytes
// of choices, two pick a boundary (an offset outside strings and comments
// next to white space or punctuation, or the end) and the third how the
// comment stands there.
func insertComments(text string, choices []byte) string {
	bounds := commentBoundaries(text)
	type insertion struct {
		at   int
		text string
	}
	var ins []insertion
	for n := 0; len(choices) >= 3 && n < maxInserted; n, choices = n+1, choices[3:] {
		at := bounds[(int(choices[0])<<8|int(choices[1]))%len(bounds)]
		c := fmt.Sprintf("# c%d", n)
		switch choices[2] % 5 {
		case 0: // code goes on on the next line
			ins = append(ins, insertion{at, c + "\n"})
		case 1: // on a line of its own, in the other syntax
			ins = append(ins, insertion{at, "\n// c" + fmt.Sprint(n) + "\n"})
		case 2: // after the code of the line
			end := strings.IndexByte(text[at:], '\n')
			if end < 0 {
				ins = append(ins, insertion{len(text), " " + c})
			} else {
				ins = append(ins, insertion{at + end, " " + c})
			}
		case 3: // after a blank line
			ins = append(ins, insertion{at, "\n\n" + c + "\n"})
		case 4: // against the code before it, without a newline at the end
			if at == len(text) {
				ins = append(ins, insertion{at, c})
			} else {
				ins = append(ins, insertion{at, c + "\n"})
			}
		}
	}
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].at > ins[j].at })
	for _, in := range ins {
		text = text[:in.at] + in.text + text[in.at:]
	}
	return text
}

// commentBoundaries lists the offsets where a comment may go without
// changing the tokens around it.
func commentBoundaries(text string) []int {
	isBreak := func(c byte) bool { return strings.IndexByte(" \t\r\n(){}[],;=+-*^<>:", c) >= 0 }
	out := []int{}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '"':
			for i++; i < len(text) && text[i] != '"' && text[i] != '\n'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case c == '#' || c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			if i < len(text) {
				out = append(out, i)
			}
		case i == 0 || isBreak(c) || isBreak(text[i-1]):
			out = append(out, i)
		}
	}
	return append(out, len(text))
}

// commentsKept checks a text that parses as fmt does before it writes.
func commentsKept(text string) result {
	file, err := parser.ParseFile("in.machine", text)
	if err != nil {
		return result{}
	}
	return formatsAsFmtRequires(text, file)
}
