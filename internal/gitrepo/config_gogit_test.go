package gitrepo_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	format "github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
)

// TestGoGitConfigGap is why the configuration reader is the project's own
// (docs/repositories.md): on the cases git's own answers are checked
// against (configCases, FuzzConfigAsGit), go-git's config decoder
// (plumbing/format/config) reads other values than git or accepts files
// git refuses. A bare key is true to git and "" to go-git; runs of spaces
// and tabs, CR LF inside a quoted value, a lone CR, legacy subsections,
// escapes in subsections, a byte order mark, a variable on the header's
// line and [include] sections all differ. When this test fails, go-git
// reads every case as git does, and the own reader can go.
func TestGoGitConfigGap(t *testing.T) {
	differ := 0
	for _, tc := range configCases {
		ours := map[string][]string{}
		err := gitrepo.ParseConfigForTest([]byte(tc.content), func(k, v string, has bool) error {
			if !has {
				v = "true" // git's value of a bare key
			}
			ours[k] = append(ours[k], v)
			return nil
		})
		cfg := format.New()
		gerr := format.NewDecoder(bytes.NewReader([]byte(tc.content))).Decode(cfg)
		if (err == nil) != (gerr == nil) {
			differ++
			t.Logf("%s: git's reading fails: %v; go-git's: %v", tc.name, err, gerr)
			continue
		}
		if err != nil {
			continue
		}
		theirs := map[string][]string{}
		add := func(k, v string) { theirs[k] = append(theirs[k], v) }
		for _, s := range cfg.Sections {
			for _, o := range s.Options {
				add(strings.ToLower(s.Name)+"."+strings.ToLower(o.Key), o.Value)
			}
			for _, ss := range s.Subsections {
				for _, o := range ss.Options {
					add(strings.ToLower(s.Name)+"."+ss.Name+"."+strings.ToLower(o.Key), o.Value)
				}
			}
		}
		if !reflect.DeepEqual(ours, theirs) {
			differ++
			t.Logf("%s: git reads %q, go-git %q", tc.name, ours, theirs)
		}
	}
	t.Logf("go-git's config decoder differs from git on %d of %d cases", differ, len(configCases))
	if differ == 0 {
		t.Error("go-git's config decoder now reads every case as git: use it in place of parseConfig (docs/repositories.md)")
	}
}
