package eval

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/parser"
)

// replEntries is a session typed at the REPL: layers that only add names
// (compiled alone), and layers that replace a name or that something
// already refers to (rebuilt whole).
var replEntries = []struct {
	text  string
	alone bool // compiled into the machine's scope without a rebuild
}{
	{"param a = 2us", true},
	{"b = 3 * a", true},
	{"fa(n: B) = a + n * 1ns/B", true},
	{"ga(n: B, k) = k * fa(n) + b", true},
	{"c = ga(1KB, 2)\nd = c + e\ne = 5ns", true}, // a layer referring to its own later name
	{"h(k) = if k <= 1 then 1 else k * h(k - 1)", true},
	{"w = diameter * 1ns", true},
	{"program p { compute(b) }", true},
	{"a = 5us", false},      // replaces a: b, c, fa, ga follow it
	{"diameter = 7", false}, // w referred to the derived index
	{"param z = b + 1us", true},
	{"rep = abs(-2)", true},   // abs, the built-in, is referred to now
	{"abs(x) = 3 * x", false}, // and a function of that name takes it
	{"q = h(4) * 1us", true},
}

// An extension compiled alone equals a rebuild of the same layers: every
// field's value, every function at every test argument, the fields in
// order, the params, the names and the programs.
func TestExtendAloneEqualsARebuild(t *testing.T) {
	for _, spec := range []string{"std:xmp64", "std:loggp"} {
		m, err := Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range replEntries {
			in, err := parser.ParseInput("<repl>", e.text)
			if err != nil {
				t.Fatal(err)
			}
			x, err := m.Extend(in.Stmts)
			if err != nil {
				t.Fatalf("%s: %q: %v", spec, e.text, err)
			}
			if alone := x.root == m.root; alone != e.alone {
				t.Errorf("%s: %q compiled alone: %v, want %v", spec, e.text, alone, e.alone)
			}
			rebuilt, err := build(x.loader, x.name)
			if err != nil {
				t.Fatalf("%s: %q: the rebuild fails: %v", spec, e.text, err)
			}
			if len(rebuilt.own.list) != 0 {
				t.Fatalf("%s: the rebuild kept fields beside its root", spec)
			}
			where := fmt.Sprintf("%s after %q", spec, e.text)
			sameListings(t, where, rebuilt, x)
			sameValues(t, where, rebuilt, x)
			m = x
		}
		for q, want := range map[string]string{"b": "15us", "e": "5ns", "h(5)": "120", "q": "24us", "w": "7ns", "z": "16us", "rep": "-6"} {
			if v, err := m.Eval(q); err != nil || v.String() != want {
				t.Errorf("%s: %s = %v (%v), want %s", spec, q, v, err, want)
			}
		}
	}
}

// sameValues compares the values of two machines' fields, and calls their
// machine-level functions of up to two parameters (those typed here) at
// a size and a count.
func sameValues(t *testing.T, where string, want, got *Machine) {
	t.Helper()
	values := map[string]Field{}
	for _, f := range got.Fields() {
		values[f.Path] = f
	}
	for _, w := range want.Fields() {
		g := values[w.Path]
		switch {
		case !w.Func && !sameValue(w.Value, g.Value):
			t.Errorf("%s: %s = %v, a rebuild's %v", where, w.Path, g.Value, w.Value)
		case w.Func && !strings.Contains(w.Path, ".") && len(w.Params) <= 2:
			args := []any{"1KB", 3}[:len(w.Params)]
			vw, errw := want.Call(w.Path, args...)
			vg, errg := got.Call(w.Path, args...)
			if fmt.Sprint(errw) != fmt.Sprint(errg) || !sameValue(vw, vg) {
				t.Errorf("%s: %s%v = %v (%v), a rebuild's %v (%v)", where, w.Path, args, vg, errg, vw, errw)
			}
		}
	}
}

// sameListings compares what lists a machine's names, in order.
func sameListings(t *testing.T, where string, want, got *Machine) {
	t.Helper()
	paths := func(m *Machine) (out []string) {
		for _, f := range m.Fields() {
			out = append(out, f.Path)
		}
		return out
	}
	params := func(m *Machine) (out []string) {
		for _, f := range m.Params() {
			out = append(out, f.Path+"="+f.Value.String())
		}
		return out
	}
	for _, c := range []struct {
		what      string
		want, got []string
	}{
		{"fields", paths(want), paths(got)},
		{"params", params(want), params(got)},
		{"names", want.Names(), got.Names()},
		{"programs", want.Programs(), got.Programs()},
	} {
		if !slices.Equal(c.want, c.got) {
			t.Errorf("%s: %s %v, a rebuild's %v", where, c.what, c.got, c.want)
		}
	}
}

// Two extensions of one machine are independent: the second does not
// write where the first reads, nor see its names.
func TestExtendTwiceFromOneMachine(t *testing.T) {
	m, err := Load("std:xmp64")
	if err != nil {
		t.Fatal(err)
	}
	extend := func(m *Machine, text string) *Machine {
		t.Helper()
		in, err := parser.ParseInput("<repl>", text)
		if err != nil {
			t.Fatal(err)
		}
		x, err := m.Extend(in.Stmts)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	base := extend(m, "param a = 1us")
	one := extend(base, "param b = a * 2")
	two := extend(base, "param c = a * 3")
	if v, err := one.Eval("b"); err != nil || v.String() != "2us" {
		t.Errorf("b = %v (%v), want 2us", v, err)
	}
	if _, err := one.Eval("c"); err == nil {
		t.Errorf("the first extension sees the second's c")
	}
	if _, err := two.Eval("b"); err == nil {
		t.Errorf("the second extension sees the first's b")
	}
	if _, err := base.Eval("b"); err == nil {
		t.Errorf("the machine extended sees its extension's b")
	}
	if got := strings.Join(two.Programs(), ","); got != "" {
		t.Errorf("programs %q", got)
	}
	names := func(m *Machine) (out []string) {
		for _, f := range m.Params() {
			out = append(out, f.Path)
		}
		return out
	}
	if got := names(one); !slices.Contains(got, "b") || slices.Contains(got, "c") {
		t.Errorf("the first extension's params are %v", got)
	}
	if got := names(two); !slices.Contains(got, "c") || slices.Contains(got, "b") {
		t.Errorf("the second extension's params are %v", got)
	}
}

// A definition with an error is reported as a rebuild reports it.
func TestExtendErrorsAreTheRebuilds(t *testing.T) {
	m, err := Load("std:xmp64")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"x = nosuch + 1", "x = 1us + 1KB", "x = y\ny = x", "param p = 1\np = 2"} {
		in, err := parser.ParseInput("<repl>", text)
		if err != nil {
			t.Fatal(err)
		}
		_, got := m.Extend(in.Stmts)
		l := *m.loader
		l.opts.extra = &defLayer{stmts: in.Stmts, below: m.loader.opts.extra}
		_, want := build(&l, m.name)
		if got == nil || want == nil || got.Error() != want.Error() {
			t.Errorf("%q: Extend says %v, a rebuild %v", text, got, want)
		}
	}
}
