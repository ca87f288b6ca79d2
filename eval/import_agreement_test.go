package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
	"github.com/rogpeppe/go-internal/txtar"
)

// legacyInput is a Parasol I source the import agreement test converts.
type legacyInput struct{ name, text string }

// legacyInputs gathers every Parasol I file the repository has: the
// examples, this package's legacy test data, and the files of the parser's
// golden tests and of the command's test scripts.
func legacyInputs(t *testing.T) []legacyInput {
	t.Helper()
	var in []legacyInput
	for _, pattern := range []string{"../examples/*.machine", "testdata/legacy/*.machine"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if parser.IsLegacy(string(data)) {
				in = append(in, legacyInput{f, string(data)})
			}
		}
	}
	for _, pattern := range []string{"../parser/testdata/golden/*.txtar", "testdata/golden/*.txtar", "../cmd/parasol/testdata/script/*.txtar"} {
		archives, _ := filepath.Glob(pattern)
		for _, a := range archives {
			ar, err := txtar.ParseFile(a)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ar.Files {
				if parser.IsLegacy(string(f.Data)) {
					in = append(in, legacyInput{a + ":" + f.Name, string(f.Data)})
				}
			}
		}
	}
	return in
}

// TestImportKeepsEveryValue converts every Parasol I input to the modern
// syntax and loads both: every machine must have the same fields with the
// same values, every function (model primitives among them) the same value
// or an error at every argument tried, and the same derived indexes. A
// Parasol I primitive whose value is a plain number is nanoseconds in both.
func TestImportKeepsEveryValue(t *testing.T) {
	loaded := map[string]bool{}
	for _, in := range legacyInputs(t) {
		names, err := CheckSource(in.name, in.text)
		if err != nil {
			continue // import refuses what check rejects
		}
		loaded[in.name] = true
		f, err := parser.ParseFile(in.name, in.text)
		if err != nil {
			t.Fatal(err)
		}
		modern := format.File(Modernize(f))
		if parser.IsLegacy(modern) {
			t.Errorf("%s: import output is still in the Parasol I format:\n%s", in.name, modern)
			continue
		}
		for _, name := range names {
			old, err := LoadSource(in.name, in.text, WithMachine(name))
			if err != nil {
				t.Fatal(err)
			}
			imported, err := LoadSource("imported.machine", modern, WithMachine(name))
			if err != nil {
				t.Errorf("%s (%s): imported text does not load: %v\n%s", in.name, name, err, modern)
				continue
			}
			where := fmt.Sprintf("%s (%s)", in.name, name)
			sameFields(t, where, old, imported)
			for _, q := range []string{"nodes", "links", "diameter", "avgdist", "maxtotalspeed"} {
				va, erra := old.Eval(q)
				vb, errb := imported.Eval(q)
				if (erra != nil) != (errb != nil) || erra == nil && !sameValue(va, vb) {
					t.Errorf("%s: %s = %v (%v) before import, %v (%v) after", where, q, va, erra, vb, errb)
				}
			}
		}
	}
	for _, must := range []string{"../examples/parasol1.machine", "testdata/legacy/primitives.machine", "../cmd/parasol/testdata/script/import.txtar:corners.machine", "../parser/testdata/golden/legacy.txtar:input.machine"} {
		if !loaded[must] {
			t.Errorf("%s is not among the inputs that load", must)
		}
	}
}

// FuzzImportKeepsPrimitiveValues makes the body of a Parasol I primitive
// any expression and requires the imported machine to give the same value,
// or an error, wherever the original does.
func FuzzImportKeepsPrimitiveValues(f *testing.F) {
	for _, body := range []string{
		"100 + n", "n * 2", "k * n", "if n < 10 then 100 else n * 1ns", "max(n, k) + 1",
		"log2(k) * (pack + n)", "n / 1B", "sum(i in 1 .. k, n)", "-n", "n ^ 2", "abs(n - k) * 1us",
		"if k > 2 then n else 5", "processor(1).createjob * n + 3us", "n * topology(1).link(0).linkspeed",
		"pack * k", "mod(n, 3)", "if n == k then 1 else 2us", "processor(1).mantissa + n", "v", "g(n)",
		"n < k", "if n < 3 then true else 5", "implied(n, 1us)", "ceil(n / 3)", "min(n, 2us)", "-.0", "1.e+3 + n",
	} {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if len(body) > 200 || strings.ContainsAny(body, "\r\n#") {
			return
		}
		noFiles := WithReadFile(func(string) ([]byte, error) { return nil, os.ErrNotExist })
		src := strings.Replace(legacyPrimitives, "BODY", body, 1)
		if _, err := CheckSource("fuzz.machine", src, noFiles); err != nil {
			return
		}
		file, err := parser.ParseFile("fuzz.machine", src)
		if err != nil || !file.Legacy {
			return
		}
		modern := format.File(Modernize(file))
		old, err := LoadSource("fuzz.machine", src, noFiles)
		if err != nil {
			return
		}
		imported, err := LoadSource("imported.machine", modern, noFiles)
		if err != nil {
			t.Fatalf("imported text does not load: %v\n--- source ---\n%s\n--- imported ---\n%s", err, src, modern)
		}
		sameFields(t, "f(n, k) = "+body, old, imported)
		if t.Failed() {
			t.Logf("--- imported ---\n%s", modern)
		}
	})
}
