package gitrepo

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// FuzzParseNameLog: any bytes give commits or an error, never a panic; a
// commit per \x01 at most, and every path Touching answers from a parse
// is one it asked for.
func FuzzParseNameLog(f *testing.F) {
	h := strings.Repeat("a", 40)
	f.Add([]byte("\x01"+h+"\x00\na/b\x00c\x00\x01"+h+"\x00\nd/e/f\x00"), "a/b d/e c/x")
	f.Add([]byte("x\x00"), "x")
	f.Add([]byte("\x01"+h+"\x00"), "")
	f.Fuzz(func(t *testing.T, out []byte, asked string) {
		paths := strings.Fields(asked)
		list, err := parseNameLog(out)
		if err != nil {
			return
		}
		if len(list) > bytes.Count(out, []byte{1}) {
			t.Fatalf("%d commits from %d markers", len(list), bytes.Count(out, []byte{1}))
		}
		tl := &touchLog{commits: list}
		for _, tc := range tl.touching(gitblame.ZeroHash, paths) {
			for _, p := range tc.Paths {
				if !slices.Contains(paths, p) {
					t.Fatalf("%q: not asked (%v)", p, paths)
				}
			}
		}
		if ts, err := parseTouching(out, paths); err == nil {
			for _, tc := range ts {
				for _, p := range tc.Paths {
					if !slices.Contains(paths, p) {
						t.Fatalf("parseTouching: %q not asked (%v)", p, paths)
					}
				}
			}
		}
	})
}
