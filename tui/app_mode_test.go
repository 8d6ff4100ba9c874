package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A mode's state is reached only by asking the App's mode whether it is
// that mode (v, ok := a.mode.(*replayMode), or a type switch): a plain
// a.mode.(*replayMode) would panic outside a replay, which is how a mouse
// release once ended every screen but the replay's.
func TestModeStateOnlyAsked(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		asked := map[*ast.TypeAssertExpr]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
					if ta, ok := n.Rhs[0].(*ast.TypeAssertExpr); ok {
						asked[ta] = true
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == 2 && len(n.Values) == 1 {
					if ta, ok := n.Values[0].(*ast.TypeAssertExpr); ok {
						asked[ta] = true
					}
				}
			case *ast.TypeAssertExpr:
				sel, ok := n.X.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "mode" {
					return true
				}
				checked++
				if n.Type != nil && !asked[n] { // n.Type is nil in a type switch
					t.Errorf("%s: the mode's state is taken without asking (use v, ok := ….mode.(T))", fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no use of the mode's state found: the test looks in the wrong place")
	}
}
