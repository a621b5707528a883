package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"
)

// contextValues returns the places in a file's source that use
// context.WithValue (rule 10), under whatever name the file imports
// package context: called, or taken as a function value.
func contextValues(fset *token.FileSet, f *ast.File) []token.Position {
	name := ""
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil && p == "context" {
			name = "context"
			if imp.Name != nil {
				name = imp.Name.Name
			}
		}
	}
	if name == "" || name == "_" {
		return nil
	}
	var out []token.Position
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "WithValue" {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == name {
			out = append(out, fset.Position(sel.Pos()))
		}
		return true
	})
	return out
}

// TestNoContextValues checks rule 10 on every non-test Go file of the
// module: no dependency travels in a context.Context. A context carries
// cancellation and deadlines only; what a function works with (the
// verification cache, the prose checker, the repositories of a run) is a
// parameter or a field of its options, so that a caller (a test above
// all) sees what it leaves out.
func TestNoContextValues(t *testing.T) {
	eachProductFile(t, list(t, "linux"), nil, 50, func(fset *token.FileSet, f *ast.File, rel string, _ *pkg) {
		for _, pos := range contextValues(fset, f) {
			t.Errorf("rule 10: %s:%d: context.WithValue; pass the value as a parameter or an options field", rel, pos.Line)
		}
	})
}

// TestContextValues: the check finds what it is meant to find.
func TestContextValues(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []int
	}{
		{"context", `package x
import "context"
func f(ctx context.Context) context.Context {
	ctx = context.WithValue(ctx, key{}, 1)
	with := context.WithValue
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	_ = ctx.Value(key{})
	return with(ctx, key{}, 2)
}
`, []int{4, 5}},
		{"renamed", `package x
import stdctx "context"
func f(ctx stdctx.Context) stdctx.Context { return stdctx.WithValue(ctx, key{}, 1) }
`, []int{3}},
		{"another package", `package x
import "example.com/context"
func f() { _ = other.WithValue(1); _ = context.WithValue(2) }
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "x.go", tc.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			var lines []int
			for _, p := range contextValues(fset, f) {
				lines = append(lines, p.Line)
			}
			if !slices.Equal(lines, tc.want) {
				t.Errorf("found at lines %v, want %v", lines, tc.want)
			}
		})
	}
}
