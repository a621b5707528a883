package benchrepo

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// GoAttributes is a .gitattributes like the Go tree's: every file
// binary to git's line-ending conversion, which converts nothing.
const GoAttributes = `# Treat all files in this repository as binary, with no git magic
# updating line endings (as the Go repository's .gitattributes does).
* -text
`

// CiteExisting writes o.Memories memories of o.Citations citations each
// into the existing repository (a clone) dir, citing lines of its tracked
// text files (a known share of them stale, as Generate does), and commits
// them. The memories go to .serena/memories/memcite-bench.
func CiteExisting(ctx context.Context, dir string, o Options) (Stats, error) {
	var st Stats
	cmd := exec.CommandContext(ctx, "git", "ls-files", "-z")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return st, fmt.Errorf("git ls-files in %s: %w", dir, err)
	}
	type file struct {
		path  string
		lines []string
	}
	var files []file
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" || strings.HasPrefix(p, ".serena/") {
			continue
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		fi, err := os.Lstat(full)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 || fi.Size() > 1<<20 {
			continue
		}
		b, err := os.ReadFile(full)
		if err != nil || bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) || bytes.IndexByte(b, '\r') >= 0 {
			continue
		}
		files = append(files, file{p, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")})
	}
	if len(files) == 0 {
		return st, fmt.Errorf("%s: no tracked text file to cite", dir)
	}
	st.Files = len(files)
	rng := rand.New(rand.NewSource(o.Seed))
	cited := map[string]bool{}
	for m := 0; m < o.Memories; m++ {
		var b strings.Builder
		fmt.Fprintf(&b, "---\nid: bench-%05d\nsubject: Benchmark memory %d\ncitations:\n", m, m)
		for c := 0; c < o.Citations; c++ {
			f := files[rng.Intn(len(files))]
			line := 1 + rng.Intn(len(f.lines))
			snippet := strings.TrimSpace(f.lines[line-1])
			snippet = snippet[:min(len(snippet), 10+rng.Intn(30))]
			for !utf8.ValidString(snippet) {
				snippet = snippet[:len(snippet)-1]
			}
			if rng.Float64() < o.StaleShare {
				st.Stale++
				if rng.Intn(2) == 0 {
					line += len(f.lines) // past the end
				} else {
					snippet = "renamedIdentifier"
				}
			}
			cited[f.path] = true
			if strings.TrimSpace(snippet) == "" {
				fmt.Fprintf(&b, "  - path: %q\n    line: %d\n", f.path, line)
			} else {
				fmt.Fprintf(&b, "  - path: %q\n    line: %d\n    snippet: %q\n", f.path, line, strings.TrimSpace(snippet))
			}
			st.Citations++
		}
		fmt.Fprintf(&b, "tags: [benchmark]\nconfidence: 1.0\n---\n\n# Memory %d\n\nSome prose about the code.\n", m)
		if err := write(dir, fmt.Sprintf(".serena/memories/memcite-bench/topic%02d/bench-%05d.md", m%20, m), b.String()); err != nil {
			return st, err
		}
	}
	st.Memories = o.Memories
	for p := range cited {
		st.CitedFiles = append(st.CitedFiles, p)
	}
	if o.Commit {
		for _, args := range [][]string{{"add", ".serena/memories/memcite-bench"}, {"commit", "-q", "-m", "benchmark memories"}} {
			if err := git(ctx, dir, args...); err != nil {
				return st, err
			}
		}
	}
	return st, nil
}
