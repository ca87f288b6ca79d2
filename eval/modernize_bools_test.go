package eval

import (
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
)

// TestImportKeepsPrimitivesThatGiveBools converts Parasol I primitives
// whose value is a bool for some arguments: Parasol I gives a plain number
// its implied unit and leaves a bool alone, so the implied(…) that import
// writes around a value of unknown unit must leave it alone too.
func TestImportKeepsPrimitivesThatGiveBools(t *testing.T) {
	tests := []struct {
		name, src string
	}{
		{"a call of a primitive whose branches give a number and a bool",
			strings.Replace(legacyPrimitives, "BODY", "if 0>0 then n else 0>0", 1)},
		{"a call of a primitive that gives a bool for some arguments",
			strings.Replace(legacyPrimitives, "BODY", "if n > 2 then n else n > 5", 1)},
		{"a primitive that gives its parameter, called with a bool",
			"machinename = \"m\"\nprocessor = 1\ncreatejob = 1000\nmodelsection = PVM\nf(n) = n\nv = f(0 > 1)\nw = f(3)\n"},
		{"a primitive of another section called with a bool",
			"machinename = \"m\"\nprocessor = 1\ncreatejob = 1000\nmodelsection = PVM\nf(n, k) = if k > 3 then n else n * k\nmodelsection = Express\nv = PVM.f(1 < 2, 4)\nw = PVM.f(2, 3)\n"},
	}
	for _, tt := range tests {
		f, err := parser.ParseFile("in.machine", tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		modern := format.File(Modernize(f))
		old, err := LoadSource("in.machine", tt.src)
		if err != nil {
			t.Errorf("%s: the Parasol I text does not load: %v", tt.name, err)
			continue
		}
		imported, err := LoadSource("imported.machine", modern)
		if err != nil {
			t.Errorf("%s: imported text does not load: %v\n%s", tt.name, err, modern)
			continue
		}
		sameFields(t, tt.name, old, imported)
	}
}
