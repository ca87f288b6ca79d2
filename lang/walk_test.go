package lang_test

import (
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// Inspect visits every expression depth first, operands in source order,
// and after each node's operands calls f(nil).
func TestInspectVisitsInSourceOrder(t *testing.T) {
	e, err := parser.ParseExpr("q", `-f(a, if b then c.d else "s") + sum(i in 1 .. n, i^2) * not true`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	lang.Inspect(e, func(e lang.Expr) bool {
		switch e := e.(type) {
		case nil:
			got = append(got, ")")
		case *lang.Ident:
			got = append(got, e.Name)
		case *lang.Binary:
			got = append(got, e.Op.String())
		case *lang.Unary:
			got = append(got, "u"+e.Op.String())
		case *lang.Select:
			got = append(got, "."+e.Name)
		default:
			got = append(got, format.Expr(e))
		}
		return true
	})
	want := `+ u- f(a, if b then c.d else "s") f ) a ) if b then c.d else "s" b ) .d c ) ) "s" ) ) ) ) ` +
		`* sum(i in 1 .. n, i^2) 1 ) n ) ^ i ) 2 ) ) ) unot true ) ) ) )`
	if s := strings.Join(got, " "); s != want {
		t.Errorf("visited\n%s\nwant\n%s", s, want)
	}
}

// Returning false skips a node's operands and its closing f(nil).
func TestInspectPrunes(t *testing.T) {
	e, err := parser.ParseExpr("q", "a + g(b, c) * d")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	nils := 0
	lang.Inspect(e, func(e lang.Expr) bool {
		switch e := e.(type) {
		case nil:
			nils++
		case *lang.Ident:
			names = append(names, e.Name)
		case *lang.Call:
			return false
		}
		return true
	})
	if s := strings.Join(names, " "); s != "a d" || nils != 4 {
		t.Errorf("names %q and %d closing calls, want \"a d\" and 4 (a, d, *, +)", s, nils)
	}
	lang.Inspect(nil, func(lang.Expr) bool { t.Error("visited a nil expression"); return true })
}
