package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/config"
)

// configUses finds, in one file, what only the configuration model may
// do (rule 9): a string literal that is a setting's git config key
// (config.Keys), `"config"` as an argument of a call (git config run by
// hand), and os.Getenv or os.LookupEnv of a MEMCITE_ variable.
func configUses(fset *token.FileSet, f *ast.File, keys map[string]bool) []token.Position {
	var out []token.Position
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				if s, err := strconv.Unquote(n.Value); err == nil && keys[strings.ToLower(s)] {
					out = append(out, fset.Position(n.Pos()))
				}
			}
		case *ast.CallExpr:
			for _, a := range n.Args {
				if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING && lit.Value == `"config"` {
					out = append(out, fset.Position(lit.Pos()))
				}
			}
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || len(n.Args) == 0 {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "os" && (sel.Sel.Name == "Getenv" || sel.Sel.Name == "LookupEnv") {
				if lit, ok := n.Args[0].(*ast.BasicLit); ok && strings.HasPrefix(lit.Value, `"MEMCITE_`) {
					out = append(out, fset.Position(lit.Pos()))
				}
			}
		}
		return true
	})
	return out
}

// gitKeys are the git config keys of the settings, in lower case.
func gitKeys() map[string]bool {
	m := map[string]bool{}
	for _, k := range config.Keys {
		if k.Git != "" {
			m[strings.ToLower(k.Git)] = true
		}
	}
	return m
}

// TestOneConfigurationModel enforces rule 9: settings are read through
// internal/config (resolved once per run) and the environment switches
// by main (config.ReadSwitches). Only internal/config names a setting's
// git key, only internal/gitrepo runs git config (the door to git), and no
// package reads a MEMCITE_ variable with os.Getenv: main reads the
// switches, and the configuration layers read the settings' variables
// through the getenv they are given. internal/profile (the profile build
// tag's debugging switches) is exempt.
func TestOneConfigurationModel(t *testing.T) {
	keys := gitKeys()
	keep := func(p *pkg) bool {
		switch short(p.ImportPath) {
		case "internal/config", "internal/gitrepo", "internal/profile":
			return false
		}
		return true
	}
	eachProductFile(t, list(t, "linux"), keep, 50, func(fset *token.FileSet, f *ast.File, rel string, _ *pkg) {
		for _, pos := range configUses(fset, f, keys) {
			t.Errorf("rule 9: %s:%d: a setting, git config or a MEMCITE_ switch read outside the configuration model (internal/config; main for switches)", rel, pos.Line)
		}
	})
}

// TestConfigUses: the check finds what it is meant to find.
func TestConfigUses(t *testing.T) {
	const src = `package x
func f() {
	_ = vals["memcite.precommit"]
	gitrepo.Git(ctx, dir, "config", "--get", "x")
	_ = os.Getenv("MEMCITE_CACHE")
	_ = os.Getenv("HOME")
	_ = "memcite.lock"
	_ = getenv("MEMCITE")
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, p := range configUses(fset, f, gitKeys()) {
		lines = append(lines, p.Line)
	}
	if want := []int{3, 4, 5}; !slices.Equal(lines, want) {
		t.Errorf("found at lines %v, want %v", lines, want)
	}
}
