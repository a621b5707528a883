package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

const module = "github.com/git-memcite/git-memcite"

// pkg is what `go list -json` says of a package.
type pkg struct {
	ImportPath string
	Dir        string
	Standard   bool
	Imports    []string // of the non-test files
	Deps       []string
}

// binary is the command the rules protect.
const binary = module + "/cmd/git-memcite"

// isTestSupport: the packages that build repositories, run benchmarks and
// gate the long tests (internal/testing/... and scripts/genrepo): exempt
// from the one door to git, never part of the binary.
func isTestSupport(importPath string) bool {
	return strings.HasPrefix(importPath, module+"/internal/testing/") || importPath == module+"/scripts/genrepo"
}

// goosList are the platforms the rules are checked for (files with build
// constraints import different packages).
var goosList = []string{"linux", "darwin", "windows"}

// list runs `go list -deps -json` on the whole module for one platform.
func list(t *testing.T, goos string) map[string]*pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json", module+"/...")
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list (GOOS=%s): %v\n%s", goos, err, stderr.Bytes())
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := &pkg{}
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list (GOOS=%s): %v", goos, err)
		}
		pkgs[p.ImportPath] = p
	}
	if len(own(pkgs)) < 15 || pkgs[binary] == nil {
		t.Fatalf("go list (GOOS=%s) listed only %d packages of the module", goos, len(own(pkgs)))
	}
	return pkgs
}

// own returns the module's packages, sorted.
func own(pkgs map[string]*pkg) []*pkg {
	var out []*pkg
	for path, p := range pkgs {
		if path == module || strings.HasPrefix(path, module+"/") {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ImportPath < out[j].ImportPath })
	return out
}

// eachProductFile parses every non-test Go file of the packages keep
// accepts (nil: all of the module's) and calls f with the file, its path
// relative to the module root (slashes) and its package; it fails when
// fewer than min files were read (a check that reads nothing proves
// nothing).
func eachProductFile(t *testing.T, pkgs map[string]*pkg, keep func(*pkg) bool, min int, f func(fset *token.FileSet, file *ast.File, rel string, p *pkg)) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	for _, p := range own(pkgs) {
		if keep != nil && !keep(p) {
			continue
		}
		names, err := filepath.Glob(filepath.Join(p.Dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			rel, err := filepath.Rel(root, name)
			if err != nil {
				t.Fatal(err)
			}
			file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files++
			f(fset, file, filepath.ToSlash(rel), p)
		}
	}
	if files < min {
		t.Fatalf("only %d files checked", files)
	}
}

func short(path string) string { return strings.TrimPrefix(path, module+"/") }

func isGoGit(path string) bool { return strings.HasPrefix(path, "github.com/go-git/") }

// TestLayers checks rules 1 to 5 and 11 of the package documentation, for Linux
// and this platform, and for every platform in the long tests (CI).
func TestLayers(t *testing.T) {
	for _, goos := range goosList {
		t.Run(goos, func(t *testing.T) {
			if goos != runtime.GOOS && goos != goosList[0] {
				longtest.Skip(t, "go list for another platform")
			}
			pkgs := list(t, goos)
			inBinary := map[string]bool{binary: true}
			for _, d := range pkgs[binary].Deps {
				inBinary[d] = true
			}
			for _, p := range own(pkgs) {
				name := short(p.ImportPath)
				if isTestSupport(p.ImportPath) && inBinary[p.ImportPath] {
					t.Errorf("rule 5: %s is test support but part of the git-memcite binary", name)
				}
				for _, imp := range p.Imports {
					switch {
					case (imp == "os/exec" || isGoGit(imp)) && name != "internal/gitrepo" && !isTestSupport(p.ImportPath):
						t.Errorf("rule 1: %s imports %s: only internal/gitrepo may reach git", name, imp)
					case strings.HasPrefix(imp, "github.com/alecthomas/kong") && p.ImportPath != binary:
						t.Errorf("rule 2: %s imports kong: only cmd/git-memcite parses flags", name)
					case (imp == binary || imp == module+"/internal/render") && p.ImportPath != binary:
						t.Errorf("rule 3: %s imports %s: only cmd/git-memcite renders", name, short(imp))
					case imp == module+"/internal/app" && p.ImportPath != binary:
						t.Errorf("rule 3: %s imports internal/app: only cmd/git-memcite calls the application layer", name)
					}
				}
			}
			checkRender(t, pkgs)
			for _, d := range pkgs[binary].Deps {
				if isGoGit(d) && !goGitAllowed(d) {
					t.Errorf("rule 11: the binary links %s: objects are read by internal/gitrepo's own readers and git cat-file only", d)
				}
			}
		})
	}
}

// goGitAllowed are the go-git packages the binary may link (rule 11):
// the names of objects and modes, and readers of file formats other than
// the object database's own.
func goGitAllowed(path string) bool {
	const v5 = "github.com/go-git/go-git/v5/"
	switch strings.TrimPrefix(path, v5) {
	case "plumbing", "plumbing/hash", "plumbing/filemode":
		return true
	case "plumbing/format/packfile", "plumbing/format/idxfile", "plumbing/format/objfile", "plumbing/format/commitgraph":
		return false
	}
	return strings.HasPrefix(path, v5+"plumbing/format/")
}

// renderForbidden are the packages internal/render may not import.
var renderForbidden = map[string]bool{
	"os": true, "os/exec": true, "net": true, "net/http": true, "syscall": true,
	module + "/internal/gitrepo":    true,
	module + "/internal/atomicfile": true,
	module + "/internal/source":     true,
}

// renderReachesGitVia are the packages through which render still reaches
// git (rule 4): their result types sit beside code that runs git.
var renderReachesGitVia = map[string]bool{
	module + "/internal/hookrun":     true,
	module + "/internal/doctor":      true,
	module + "/internal/agenthook":   true,
	module + "/internal/hookinstall": true,
}

// checkRender checks rule 4: render's own imports, and that every path
// from render to git goes through a known package.
func checkRender(t *testing.T, pkgs map[string]*pkg) {
	t.Helper()
	const render = module + "/internal/render"
	r := pkgs[render]
	if r == nil {
		t.Fatal("no internal/render")
	}
	for _, imp := range r.Imports {
		if renderForbidden[imp] || isGoGit(imp) {
			t.Errorf("rule 4: internal/render imports %s: it writes to the io.Writer it is given and does no other I/O", short(imp))
		}
	}
	// walk render's imports, not entering the known packages
	seen := map[string]string{} // package -> the package that imported it
	queue := []string{render}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		p := pkgs[cur]
		if p == nil || p.Standard {
			continue
		}
		for _, imp := range p.Imports {
			if _, ok := seen[imp]; ok || renderReachesGitVia[imp] {
				continue
			}
			seen[imp] = cur
			if imp == module+"/internal/gitrepo" || imp == "os/exec" || isGoGit(imp) {
				chain := []string{short(imp)}
				for at := cur; at != render; at = seen[at] {
					chain = append([]string{short(at)}, chain...)
				}
				t.Errorf("rule 4: internal/render reaches git through a new path: render → %s", strings.Join(chain, " → "))
				continue
			}
			queue = append(queue, imp)
		}
	}
}

// errorTextFuncs are the functions of strings and bytes that match text.
var errorTextFuncs = map[string]bool{
	"Contains": true, "ContainsAny": true, "HasPrefix": true, "HasSuffix": true, "EqualFold": true,
	"Index": true, "LastIndex": true, "Cut": true, "CutPrefix": true, "CutSuffix": true,
	"TrimPrefix": true, "TrimSuffix": true, "Compare": true,
}

// isErrorCall reports whether e is a call x.Error() without arguments.
func isErrorCall(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Error"
}

// errorTextMatches returns the places in a file's source where an error's
// text is compared or searched (rule 6).
func errorTextMatches(fset *token.FileSet, f *ast.File) []token.Position {
	var out []token.Position
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (isErrorCall(n.X) || isErrorCall(n.Y)) {
				out = append(out, fset.Position(n.Pos()))
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); !ok || (pkg.Name != "strings" && pkg.Name != "bytes") || !errorTextFuncs[sel.Sel.Name] {
				return true
			}
			for _, a := range n.Args {
				if isErrorCall(a) {
					out = append(out, fset.Position(n.Pos()))
					break
				}
			}
		}
		return true
	})
	return out
}

// TestNoErrorTextMatching checks rule 6 on every non-test Go file of the
// module (files of every platform: the files are parsed, not built).
func TestNoErrorTextMatching(t *testing.T) {
	eachProductFile(t, list(t, "linux"), nil, 50, func(fset *token.FileSet, f *ast.File, rel string, _ *pkg) {
		for _, pos := range errorTextMatches(fset, f) {
			t.Errorf("rule 6: %s:%d: an error's text is matched; use errors.Is or errors.As", rel, pos.Line)
		}
	})
}

// TestErrorTextMatches: the check finds what it is meant to find.
func TestErrorTextMatches(t *testing.T) {
	const src = `package x
func f(err error) bool {
	if err.Error() == "boom" { return true }
	if "boom" != err.Error() { return true }
	if strings.Contains(err.Error(), "exit status 1") { return true }
	if bytes.HasPrefix([]byte("x"), err.Error()) { return true }
	msg := err.Error() // kept: building a message is fine
	_ = fmt.Sprintf("%s", err.Error())
	return strings.Contains(msg, "x") || errors.Is(err, io.EOF)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, p := range errorTextMatches(fset, f) {
		lines = append(lines, p.Line)
	}
	if want := []int{3, 4, 5, 6}; !slices.Equal(lines, want) {
		t.Errorf("found at lines %v, want %v", lines, want)
	}
}

// fileWrites are the calls rule 7 keeps out of the CLI.
var fileWrites = map[string]map[string]bool{
	"os": {"Create": true, "WriteFile": true, "OpenFile": true, "Rename": true, "Remove": true, "RemoveAll": true,
		"Mkdir": true, "MkdirAll": true, "Chmod": true, "CreateTemp": true, "MkdirTemp": true},
	"memfile":    {"WriteFile": true, "WriteFileVia": true},
	"atomicfile": {"Replace": true},
}

// fileWriteCalls returns the places in a file's source that write files.
func fileWriteCalls(fset *token.FileSet, f *ast.File) []token.Position {
	var out []token.Position
	ast.Inspect(f, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && fileWrites[pkg.Name][sel.Sel.Name] {
			out = append(out, fset.Position(c.Pos()))
		}
		return true
	})
	return out
}

// TestCLIWritesNoFile checks rule 7 on the CLI's non-test files.
func TestCLIWritesNoFile(t *testing.T) {
	pkgs := list(t, "linux")
	var cli *pkg
	for _, p := range own(pkgs) {
		if short(p.ImportPath) == "cmd/git-memcite" {
			cli = p
		}
	}
	if cli == nil {
		t.Fatal("cmd/git-memcite not found")
	}
	names, err := filepath.Glob(filepath.Join(cli.Dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files++
		for _, pos := range fileWriteCalls(fset, f) {
			t.Errorf("rule 7: cmd/git-memcite/%s:%d writes a file; do it in a package below the CLI (internal/app)", filepath.Base(pos.Filename), pos.Line)
		}
	}
	if files < 10 {
		t.Fatalf("only %d files checked", files)
	}
}

// TestFileWriteCalls: the check finds what it is meant to find.
func TestFileWriteCalls(t *testing.T) {
	const src = `package x
func f() {
	os.WriteFile("a", nil, 0o644)
	_ = memfile.WriteFileVia("", "a", nil, nil)
	os.ReadFile("a")
	atomicfile.Replace("a", "b")
	app.WriteReport("a", nil)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, p := range fileWriteCalls(fset, f) {
		lines = append(lines, p.Line)
	}
	if want := []int{3, 4, 6}; !slices.Equal(lines, want) {
		t.Errorf("found at lines %v, want %v", lines, want)
	}
}

// exitFile is the one file that chooses exit statuses (rule 8).
const exitFile = "cmd/git-memcite/exit.go"

// exitChoices returns the places in a file's source that choose a numeric
// exit status (rule 8): os.Exit called with anything but the result of a
// call (a literal, a constant, a variable set to one), a use of one of the
// names in exitNames (the exit statuses exit.go declares), and an integer
// literal compared with, or assigned to, a variable named like an exit
// status (code, exit, status, exitCode, ...).
func exitChoices(fset *token.FileSet, f *ast.File, exitNames map[string]bool) []token.Position {
	var out []token.Position
	statusName := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		n := strings.ToLower(id.Name)
		return n == "code" || n == "exit" || n == "status" || strings.HasPrefix(n, "exitcode") || strings.HasPrefix(n, "exitstatus")
	}
	intLit := func(e ast.Expr) bool {
		l, ok := ast.Unparen(e).(*ast.BasicLit)
		return ok && l.Kind == token.INT
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Exit" {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "os" && len(n.Args) == 1 {
				if _, call := ast.Unparen(n.Args[0]).(*ast.CallExpr); !call {
					out = append(out, fset.Position(n.Pos()))
				}
			}
		case *ast.Ident:
			if exitNames[n.Name] {
				out = append(out, fset.Position(n.Pos()))
			}
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (statusName(n.X) && intLit(n.Y) || intLit(n.X) && statusName(n.Y)) {
				out = append(out, fset.Position(n.Pos()))
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if i < len(n.Rhs) && statusName(l) && intLit(n.Rhs[i]) {
					out = append(out, fset.Position(n.Pos()))
				}
			}
		case *ast.KeyValueExpr:
			if statusName(n.Key) && intLit(n.Value) {
				out = append(out, fset.Position(n.Pos()))
			}
		}
		return true
	})
	return out
}

// exitNames returns the names of the package-level constants and
// variables exit.go sets to an integer: exit statuses.
func exitNames(t *testing.T, root string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, filepath.FromSlash(exitFile)), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || (g.Tok != token.CONST && g.Tok != token.VAR) {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if l, ok := valueAt(vs, i).(*ast.BasicLit); ok && l.Kind == token.INT && n.Name != "_" {
					names[n.Name] = true
				}
			}
		}
	}
	return names
}

// valueAt is the value of the i-th name of a declaration (nil if none).
func valueAt(vs *ast.ValueSpec, i int) ast.Expr {
	if i < len(vs.Values) {
		return ast.Unparen(vs.Values[i])
	}
	return nil
}

// TestOneExitTable checks rule 8 on every non-test Go file of the
// packages in the binary.
func TestOneExitTable(t *testing.T) {
	pkgs := list(t, "linux")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	inBinary := map[string]bool{binary: true}
	for _, d := range pkgs[binary].Deps {
		inBinary[d] = true
	}
	names := exitNames(t, root)
	keep := func(p *pkg) bool { return inBinary[p.ImportPath] }
	eachProductFile(t, pkgs, keep, 50, func(fset *token.FileSet, f *ast.File, rel string, p *pkg) {
		if rel == exitFile {
			return
		}
		own := names
		if p.ImportPath != binary {
			own = nil // exit.go's names mean something else elsewhere
		}
		for _, pos := range exitChoices(fset, f, own) {
			t.Errorf("rule 8: %s:%d chooses an exit status; return an outcome (internal/outcome) and let %s map it", rel, pos.Line, exitFile)
		}
	})
}

// TestExitChoices: the check finds what it is meant to find.
func TestExitChoices(t *testing.T) {
	const src = `package x
func f(code int, err error) int {
	os.Exit(1)
	os.Exit(exitError)
	os.Exit(run(os.Args))
	if code == 80 { return exitStale }
	exitCode = 2
	n := 2
	_ = &exitErr{code: 1, err: err}
	_ = gitrepo.Error{ExitCode: n}
	if gitrepo.ExitCode(err) == 1 { return n }
	return exitStatus(outcome.Stale)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, p := range exitChoices(fset, f, map[string]bool{"exitError": true, "exitStale": true, "exitTable": true}) {
		lines = append(lines, p.Line)
	}
	if want := []int{3, 4, 4, 6, 6, 7, 9}; !slices.Equal(lines, want) {
		t.Errorf("found at lines %v, want %v", lines, want)
	}
}
