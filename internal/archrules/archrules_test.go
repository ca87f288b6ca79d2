package archrules

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/parasol-lang/parasol"

// langAllowed are the names of lang that runtime may use (rule 2): the
// flat schedule, and values and units.
var langAllowed = map[string]bool{
	// The flat program schedule (lang/schedule.go).
	"Schedule": true, "SchedOp": true, "SchedDep": true, "SchedKind": true, "Collective": true,
	"OpCalc": true, "OpSend": true, "OpRecv": true, "OpColl": true, "OpNow": true, "OpUntil": true, "OpSet": true,
	"AnyRank": true, "AnyTag": true,
	// Values and units.
	"Value": true, "Num": true, "Quantity": true, "Number": true, "Bool": true,
	"Dim": true, "Dimensionless": true, "TimeDim": true, "SizeDim": true, "RateDim": true,
	"FormatNumber": true, "FormatQuantity": true,
}

// pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	Deps       []string
}

// listed lists every package of the module with its imports and its
// transitive dependencies (tests excluded).
func listed(t *testing.T) map[string]*pkg {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list the packages: %v", err)
	}
	cmd := exec.Command(goTool, "list", "-json=ImportPath,Dir,GoFiles,Imports,Deps", module+"/...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		p := new(pkg)
		if err := dec.Decode(p); err != nil {
			t.Fatal(err)
		}
		pkgs[p.ImportPath] = p
	}
	for _, want := range []string{"runtime", "eval", "lang", "parser", "stdlib", "cmd/parasol"} {
		if pkgs[module+"/"+want] == nil {
			t.Fatalf("go list did not list %s/%s", module, want)
		}
	}
	return pkgs
}

// under reports whether import path p is the module's package dir or one
// under it.
func under(p, dir string) bool {
	d := module + "/" + dir
	return p == d || strings.HasPrefix(p, d+"/")
}

// TestImportRules holds rules 1 and 3 to 7 of the package comment.
func TestImportRules(t *testing.T) {
	pkgs := listed(t)
	keys := slices.Sorted(maps.Keys(pkgs))
	forbid := func(rule string, p *pkg, deps []string, bad ...string) {
		for _, d := range deps {
			for _, b := range bad {
				if under(d, b) {
					t.Errorf("%s: %s depends on %s", rule, p.ImportPath, d)
				}
			}
		}
	}
	for _, k := range keys {
		p := pkgs[k]
		switch {
		case under(k, "runtime"):
			forbid("rule 1 (the runtime knows nothing of the language)", p, p.Deps, "eval", "parser")
		case under(k, "lang"):
			for _, d := range p.Imports {
				if strings.HasPrefix(d, module+"/") && !under(d, "internal") && !under(d, "lang") {
					t.Errorf("rule 3 (lang imports no Parasol package): %s imports %s", k, d)
				}
			}
		case under(k, "parser"):
			forbid("rule 4 (the parser evaluates nothing)", p, p.Deps, "eval", "runtime")
		case under(k, "stdlib"):
			forbid("rule 5 (the standard library is data and graphs)", p, p.Deps, "eval", "runtime", "parser")
		}
		if k != module+"/cmd/parasol" {
			forbid("rule 6 (only cmd/parasol imports cmd)", p, p.Imports, "cmd")
			forbid("rule 7 (only cmd/parasol imports the language server)", p, p.Imports, "lsp")
		}
		if !under(k, "lsp") {
			for _, d := range p.Imports {
				if lspOnly(d) {
					t.Errorf("rule 7 (the protocol libraries are the language server's): %s imports %s", k, d)
				}
			}
		}
	}
}

// lspOnly reports whether an import path is one of the libraries only the
// language server may import (rule 7).
func lspOnly(path string) bool {
	for _, m := range []string{"github.com/tliron/glsp", "github.com/sourcegraph/jsonrpc2"} {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}

// TestRuntimeUsesOnlySchedulesAndValuesOfLang holds rule 2: every lang.X
// in runtime's non-test files is on langAllowed.
func TestRuntimeUsesOnlySchedulesAndValuesOfLang(t *testing.T) {
	pkgs := listed(t)
	files := 0
	for k, p := range pkgs {
		if !under(k, "runtime") {
			continue
		}
		for _, name := range p.GoFiles {
			path := filepath.Join(p.Dir, name)
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files++
			local := ""
			for _, im := range f.Imports {
				if ip, _ := strconv.Unquote(im.Path.Value); ip == module+"/lang" {
					local = "lang"
					if im.Name != nil {
						local = im.Name.Name
					}
				}
			}
			if local == "" {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == local && !langAllowed[sel.Sel.Name] {
						t.Errorf("rule 2 (runtime uses lang only for schedules, values and units): %s uses lang.%s", filepath.Join(k, name), sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
	if files == 0 {
		t.Fatal("no runtime files were read")
	}
}
