package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func readDoc(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDocsAgreeWithTool: what the docs say of backslashes in paths, of a
// citation's base, of the index decoder and of revisions is what the tool
// does; benchmark history (tables comparing commits) lives in
// docs/performance.md only.
func TestDocsAgreeWithTool(t *testing.T) {
	t.Run("backslashes are read as slashes", func(t *testing.T) {
		dir := t.TempDir()
		for p, body := range map[string]string{
			"src/a.go":                   "package a\n",
			".serena/memories/m.md":      "---\ncitations:\n- path: src\\a.go\n  line: 1\n---\n",
			".serena/memories/escape.md": "---\ncitations:\n- path: ..\\a.go\n---\n",
		} {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var out, errb bytes.Buffer
		run([]string{"verify-all", "--repo-root", dir, "--no-cache"}, &out, &errb)
		if !strings.Contains(errb.String(), `path src\a.go is written with backslashes; read as src/a.go`) {
			t.Errorf("no warning for a backslash path:\n%s", errb.String())
		}
		if !strings.Contains(out.String(), "Citations: 1/1 valid") || !strings.Contains(out.String(), "Path traversal blocked: ../a.go") {
			t.Errorf("src\\a.go is not read as src/a.go, or ..\\a.go as ../a.go:\n%s", out.String())
		}
		schema := readDoc(t, "docs/citation-schema.md")
		if strings.Contains(schema, "contains a backslash") || !strings.Contains(schema, "A backslash is read as a slash") {
			t.Error("docs/citation-schema.md does not say that a backslash is read as a slash")
		}
	})
	t.Run("a citation's base comes from history, never a clock", func(t *testing.T) {
		help := (&relocateCmd{}).Help()
		if strings.Contains(help, "verified time") || !strings.Contains(help, "never from a clock") {
			t.Errorf("relocate -h: %s", help)
		}
		if !strings.Contains(readDoc(t, "README.md"), "never from a clock") {
			t.Error("README.md no longer says where the base comes from")
		}
	})
	t.Run("the index decoder is the project's own", func(t *testing.T) {
		sec := readDoc(t, "SECURITY.md")
		if strings.Contains(sec, "go-git's decoder") || !strings.Contains(sec, "parseIndex") {
			t.Error("SECURITY.md does not name the index decoder in use")
		}
		if !strings.Contains(readDoc(t, "internal/gitrepo/index.go"), "\nfunc parseIndex(") {
			t.Error("SECURITY.md names parseIndex, which internal/gitrepo/index.go no longer has")
		}
	})
	t.Run("revisions", func(t *testing.T) {
		if strings.Contains(readDoc(t, "README.md"), "resolves revisions with `git rev-parse --verify`") {
			t.Error("README.md says every revision is resolved by git rev-parse; common forms are resolved in-process")
		}
	})
	t.Run("benchmark history in docs/performance.md only", func(t *testing.T) {
		commit := regexp.MustCompile(`\b[0-9a-f]{7}\b`)
		for _, doc := range []string{"README.md", "docs/hooks.md"} {
			for i, l := range strings.Split(readDoc(t, doc), "\n") {
				if !strings.HasPrefix(l, "|") {
					continue
				}
				for _, cell := range strings.Split(l, "|") {
					if strings.Contains(cell, "`") {
						continue // a command to run: BASE=<commit> names what it compares with
					}
					for _, m := range commit.FindAllString(cell, -1) {
						if strings.ContainsAny(m, "0123456789") && strings.ContainsAny(m, "abcdef") {
							t.Errorf("%s:%d: a figure of commit %s; history goes to docs/performance.md: %s", doc, i+1, m, l)
						}
					}
				}
			}
		}
		perf := readDoc(t, "docs/performance.md")
		for _, c := range []string{"8625dfa", "7028bbd", "f66c021", "f7036cc"} {
			if !strings.Contains(perf, c) {
				t.Errorf("docs/performance.md lacks the runs of %s", c)
			}
		}
	})
}
