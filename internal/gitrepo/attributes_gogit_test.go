package gitrepo

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestGoGitAttributesGap is why the attributes that may convert a path
// are matched by the project's own code (attributes.go), not go-git's
// plumbing/format/gitattributes: on random attribute files of every form
// (the lines TestConversionsCoverGit writes, at the top, below it and in
// info/attributes), go-git's matcher says for some paths that git may
// convert them where `git check-attr` says git may not, or the other way
// round; it refuses files git reads (a macro defined below the top
// directory, which git ignores with a warning) and panics on a pattern
// that ends in a slash, which git reads (docs/repositories.md). When this test fails, go-git agrees with
// git on every case, and it could do the matching.
func TestGoGitAttributesGap(t *testing.T) {
	files, lines, names := attrFiles, attrLines, convertingAttrs
	rng := rand.New(rand.NewSource(11))
	pick := func() string {
		var b strings.Builder
		for i, n := 0, 1+rng.Intn(4); i < n; i++ {
			b.WriteString(lines[rng.Intn(len(lines))])
		}
		return b.String()
	}
	differ, asked := 0, 0
	for range 40 {
		dir := t.TempDir()
		git := gitfixture.Runner(t, dir)
		git("init", "-q")
		for _, f := range files {
			gitfixture.Write(t, dir, f, "x\n")
		}
		attrs := map[string]string{".gitattributes": pick(), "doc/.gitattributes": pick(), ".git/info/attributes": pick()}
		for p, a := range attrs {
			gitfixture.Write(t, dir, p, a)
		}
		// go-git's stack, in increasing priority: the working tree's files
		// from the top down, then info/attributes
		stack, err := gitattributes.ReadPatterns(osfs.New(dir), nil)
		if err != nil {
			// git reads the files (a macro below the top is ignored with
			// a warning); go-git answers for no path
			differ += len(files)
			asked += len(files)
			t.Logf("go-git cannot read the attributes (%v), git can: %q", err, attrs)
			continue
		}
		info, err := os.ReadFile(filepath.Join(dir, ".git", "info", "attributes"))
		if err != nil {
			t.Fatal(err)
		}
		more, err := gitattributes.ReadAttributes(strings.NewReader(string(info)), nil, true)
		if err != nil {
			t.Fatal(err)
		}
		m := gitattributes.NewMatcher(append(stack, more...))
		vals := checkAttr(git, false, files)
		for _, p := range files {
			res, panicked := match(m, p, names)
			asked++
			if panicked != nil {
				differ++
				t.Logf("%s: go-git's matcher panics (%v); attributes %q", p, panicked, attrs)
				continue
			}
			got := map[string]string{}
			for _, a := range names {
				r, ok := res[a]
				switch {
				case !ok || r.IsUnspecified():
					got[a] = "unspecified"
				case r.IsSet():
					got[a] = "set"
				case r.IsUnset():
					got[a] = "unset"
				default:
					got[a] = r.Value()
				}
			}
			if gitConverts(got) != gitConverts(vals[p]) {
				differ++
				t.Logf("%s: git %v, go-git %v; attributes %q", p, vals[p], got, attrs)
			}
		}
	}
	t.Logf("go-git's gitattributes matcher differs from git check-attr on whether git may convert %d of %d paths", differ, asked)
	if differ == 0 {
		t.Error("go-git's gitattributes matcher now agrees with git on every case: it could match the converting attributes (docs/repositories.md)")
	}
}

// match is m.Match, with a panic of go-git's returned.
func match(m gitattributes.Matcher, p string, names []string) (res map[string]gitattributes.Attribute, panicked any) {
	defer func() { panicked = recover() }()
	res, _ = m.Match(strings.Split(p, "/"), names)
	return res, nil
}
