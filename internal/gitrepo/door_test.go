package gitrepo_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOneDoorToGit keeps every contact with git in this package: no other
// package that the git-memcite binary is built from runs programs
// (os/exec) or reads git's objects itself (go-git). Test helpers and
// benchmark generators are not part of the binary and may.
func TestOneDoorToGit(t *testing.T) {
	const module = "github.com/git-memcite/git-memcite/"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}\t{{join .Imports \" \"}}", module+"cmd/git-memcite").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, "\t")
		if !strings.HasPrefix(pkg, module) || pkg == module+"internal/gitrepo" {
			continue
		}
		checked++
		for _, imp := range strings.Fields(imports) {
			if imp == "os/exec" || strings.HasPrefix(imp, "github.com/go-git/") {
				t.Errorf("%s imports %s: only internal/gitrepo may reach git", strings.TrimPrefix(pkg, module), imp)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d packages of the binary checked: go list answered %q", checked, out)
	}
}
