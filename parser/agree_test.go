package parser_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// disagreement says how the hand-written parsers and the participle
// reference grammar differ on text, or returns "": they must accept and
// reject the same sources and expressions, and build the same trees,
// positions included.
func disagreement(text string) string {
	if d := precheckDisagreement(text); d != "" {
		return d
	}
	src := lang.NewSource("agree.machine", text)
	ref, rerr := parser.Reference.ParseFile(src)
	got, gerr := parser.ParseModern(src)
	if (rerr == nil) != (gerr == nil) {
		return fmt.Sprintf("the parsers disagree on the file\n--- reference grammar ---\n%v\n--- hand-written parser ---\n%v", errOrOK(rerr), errOrOK(gerr))
	}
	if rerr == nil {
		if d := diffFiles(ref, got); d != "" {
			return d
		}
	}
	esrc := lang.NewSource("<query>", text)
	rx, rerr := parser.Reference.ParseExpr(esrc)
	gx, gerr := parser.ParseExprSource(esrc)
	if (rerr == nil) != (gerr == nil) {
		return fmt.Sprintf("the parsers disagree on the expression\n--- reference grammar ---\n%v\n--- hand-written parser ---\n%v", errOrOK(rerr), errOrOK(gerr))
	}
	if rerr == nil && !reflect.DeepEqual(rx, gx) {
		return fmt.Sprintf("the expression trees differ\n--- reference grammar ---\n%s\n--- hand-written parser ---\n%s", format.Expr(rx), format.Expr(gx))
	}
	return ""
}

func errOrOK(err error) string {
	if err == nil {
		return "accepted"
	}
	return err.Error()
}

// diffFiles names the first statement (or comment) the two trees differ in.
func diffFiles(ref, got *lang.File) string {
	if len(ref.Stmts) != len(got.Stmts) {
		return fmt.Sprintf("%d statements from the reference grammar, %d from the hand-written parser\n--- reference ---\n%s--- hand-written ---\n%s",
			len(ref.Stmts), len(got.Stmts), format.File(ref), format.File(got))
	}
	for i := range ref.Stmts {
		if !reflect.DeepEqual(ref.Stmts[i], got.Stmts[i]) {
			one := func(s lang.Stmt) string {
				return fmt.Sprintf("at %v: %#v\n%s", s.StmtPos(), s, format.File(&lang.File{Src: ref.Src, Stmts: []lang.Stmt{s}}))
			}
			return fmt.Sprintf("statement %d differs\n--- reference ---\n%s--- hand-written ---\n%s", i, one(ref.Stmts[i]), one(got.Stmts[i]))
		}
	}
	if !reflect.DeepEqual(ref.Comments, got.Comments) {
		return fmt.Sprintf("the comments differ: %d from the reference grammar, %d from the hand-written parser", len(ref.Comments), len(got.Comments))
	}
	return ""
}

// TestParsersAgree runs both parsers over every seed source and snippet.
func TestParsersAgree(t *testing.T) {
	for i, text := range append(seedSources(t), snippets...) {
		if d := disagreement(text); d != "" {
			t.Errorf("source %d:\n%s\n--- input ---\n%s", i, d, text)
		}
	}
}

// FuzzParsersAgree holds the hand-written parser to the participle grammar
// on mutated sources.
func FuzzParsersAgree(f *testing.F) {
	for _, s := range append(seedSources(f), snippets...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := watchdog(t, text, func() result {
			if d := disagreement(text); d != "" {
				return result{fail: d + "\n--- input ---\n" + text}
			}
			return result{}
		})
		if r.fail != "" {
			t.Fatal(r.fail)
		}
	})
}
