package validation

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// freePrimitives lists the standard machines' primitives that truly cost
// nothing at some argument, as "machine PATH", with the reason. A zero
// anywhere else is a placeholder the test reports.
var freePrimitives = map[string]string{
	// BookSim models the network only: a terminal takes a packet off its
	// ejection channel at no cost, and the simulation charges none.
	"booksim-mesh PVM.receive":     "no host software in BookSim",
	"booksim-mesh Express.receive": "no host software in BookSim",
	"booksim-mesh MPI.recv":        "no host software in BookSim",
	"booksim PVM.receive":          "no host software in BookSim",
	"booksim Express.receive":      "no host software in BookSim",
	"booksim MPI.recv":             "no host software in BookSim",
}

// primitiveSizes are the message sizes every primitive is evaluated at, in
// increasing order; pack and unpack take the same numbers as item counts.
var primitiveSizes = []struct {
	size  string
	count float64
}{{"0B", 0}, {"1KB", 1e3}, {"64KB", 64e3}}

// TestStandardPrimitivesCostSomething evaluates every PVM, Express and MPI
// primitive of every standard machine at 0 B, 1 KB and 64 KB, for groups of
// 2 and 64 processors (at most the machine's processors) and from the first
// to the last processor. Every cost must be a finite time greater than zero
// and must not fall as the message grows.
func TestStandardPrimitivesCostSomething(t *testing.T) {
	eachMachine(t, func(t *testing.T, name string, m *eval.Machine) {
		g := m.Topologies()[0].Graph
		first, last := g.ID(g.Proc(0)), g.ID(g.Proc(g.NumProcs()-1))
		groups := []int{2}
		if p := min(64, g.NumProcs()); p > 2 {
			groups = append(groups, p)
		}
		n := 0
		for _, f := range m.Fields() {
			section, _, _ := strings.Cut(f.Path, ".")
			if section != "PVM" && section != "Express" && section != "MPI" {
				continue
			}
			n++
			if !slices.Contains(f.Params, "p") && !slices.Contains(f.Params, "k") {
				checkPrimitive(t, m, name, f, 0, first, last)
				continue
			}
			for _, p := range groups {
				checkPrimitive(t, m, name, f, p, first, last)
			}
		}
		if n == 0 {
			t.Errorf("%s has no PVM, Express or MPI primitives", name)
		}
	})
	for k := range freePrimitives {
		machine, path, _ := strings.Cut(k, " ")
		if _, err := load(t, "std:"+machine).Func(path); err != nil {
			t.Errorf("exemption %q names no primitive: %v", k, err)
		}
	}
}

// checkPrimitive evaluates one primitive at every size for a group of p
// processors and reports zeros, negatives, non-finite values, non-times and
// costs that fall as the size grows.
func checkPrimitive(t *testing.T, m *eval.Machine, machine string, f eval.Field, p, first, last int) {
	t.Helper()
	exempt := freePrimitives[machine+" "+f.Path] != ""
	sized := slices.Contains(f.Params, "n")
	prev, prevArgs := math.Inf(-1), ""
	for _, size := range primitiveSizes {
		var args []any
		for _, param := range f.Params {
			switch param {
			case "n":
				// pack and unpack take a number of items; the rest a message size
				if strings.Contains(f.Path, "pack") {
					args = append(args, size.count)
				} else {
					args = append(args, size.size)
				}
			case "src":
				args = append(args, first)
			case "dst":
				args = append(args, last)
			case "p", "k":
				args = append(args, p)
			default:
				t.Fatalf("%s: %s(%s): no test value for parameter %s", machine, f.Path, strings.Join(f.Params, ", "), param)
			}
		}
		call := fmt.Sprintf("%s(%s)", f.Path, argText(args))
		var v lang.Value
		var err error
		if f.Func {
			v, err = m.Call(f.Path, args...)
		} else {
			v = f.Value
		}
		switch {
		case err != nil:
			t.Errorf("%s: %s: %v", machine, call, err)
			return
		case v.Kind != lang.Number || v.Dim != lang.TimeDim:
			t.Errorf("%s: %s = %v, not a time", machine, call, v)
			return
		case math.IsNaN(v.Num) || math.IsInf(v.Num, 0):
			t.Errorf("%s: %s = %v", machine, call, v)
		case v.Num < 0:
			t.Errorf("%s: %s = %v, a negative cost", machine, call, v)
		case v.Num == 0 && !exempt:
			t.Errorf("%s: %s = 0s (a placeholder? give the cost, or list it in freePrimitives with the reason)", machine, call)
		case v.Num < prev*(1-1e-12):
			t.Errorf("%s: %s = %v, less than %s = %s", machine, call, v, prevArgs, lang.Quantity(prev, lang.TimeDim))
		}
		if !sized {
			return
		}
		prev, prevArgs = v.Num, call
	}
}

func argText(args []any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = fmt.Sprint(a)
	}
	return strings.Join(parts, ", ")
}
