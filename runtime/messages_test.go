package runtime

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// No error message of the simulator or the graphs starts with a Go package
// name: the CLI prints them as they are, to people who do not know the
// packages.
func TestErrorMessagesDoNotStartWithAPackageName(t *testing.T) {
	prefixes := []string{"runtime:", "topo:", "acyclic:", "eval:", "lang:", "parser:", "limits:"}
	checked := 0
	for _, dir := range []string{".", "acyclic", "../stdlib/topo"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if pkg, ok := sel.X.(*ast.Ident); !ok || !(pkg.Name == "fmt" && sel.Sel.Name == "Errorf" || pkg.Name == "errors" && sel.Sel.Name == "New") {
					return true
				}
				lit, ok := call.Args[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				msg, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				checked++
				for _, p := range prefixes {
					if strings.HasPrefix(msg, p) {
						t.Errorf("%s: error message %q starts with a package name", fset.Position(lit.Pos()), msg)
					}
				}
				return true
			})
		}
	}
	if checked < 50 {
		t.Fatalf("only %d error messages found", checked)
	}
}
