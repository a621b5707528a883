// Package benchrepo generates large synthetic repositories with memory
// stores for benchmarks: source files in nested folders and memories whose
// citations point at real lines, a known share of them stale.
package benchrepo

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// Options size a generated repository.
type Options struct {
	Files        int     // source files
	LinesPerFile int     // lines per source file
	Memories     int     // memory files
	Citations    int     // citations per memory
	StaleShare   float64 // share of citations made stale
	Seed         int64
	Commit       bool // git init, add and commit everything
	// NoSnippets writes every citation as a shorthand "path:N" without a
	// snippet (judged by line identity); stale ones are past the end.
	NoSnippets bool
}

// Default is the size of the verification benchmark of the README:
// 10,000 files, 2,000 memories × 5 citations, 10% stale.
var Default = Options{Files: 10000, LinesPerFile: 80, Memories: 2000, Citations: 5, StaleShare: 0.10, Seed: 1, Commit: true}

// Stats describe what was generated.
type Stats struct {
	Files, Memories, Citations, Stale int
	CitedFiles                        []string // distinct cited paths
}

// Generate writes the repository into dir (which must exist and be empty).
func Generate(ctx context.Context, dir string, o Options) (Stats, error) {
	rng := rand.New(rand.NewSource(o.Seed))
	var st Stats
	paths := make([]string, o.Files)
	for i := range paths {
		paths[i] = fmt.Sprintf("pkg%03d/sub%d/file%05d.go", i/100, i%7, i)
		if err := write(dir, paths[i], sourceFile(i, o.LinesPerFile)); err != nil {
			return st, err
		}
	}
	st.Files = o.Files
	cited := map[string]bool{}
	for m := 0; m < o.Memories; m++ {
		var b strings.Builder
		fmt.Fprintf(&b, "---\nid: mem-%05d\nsubject: Generated memory %d\ncitations:\n", m, m)
		for c := 0; c < o.Citations; c++ {
			fi := rng.Intn(o.Files)
			line := 1 + rng.Intn(o.LinesPerFile)
			text := lineText(fi, line)
			snippet := text[:min(len(text), 10+rng.Intn(30))]
			if rng.Float64() < o.StaleShare {
				st.Stale++
				if rng.Intn(2) == 0 || o.NoSnippets {
					line += o.LinesPerFile // past the end
				} else {
					snippet = "renamedIdentifier"
				}
			}
			cited[paths[fi]] = true
			if o.NoSnippets {
				fmt.Fprintf(&b, "  - %s:%d\n", paths[fi], line)
			} else {
				fmt.Fprintf(&b, "  - path: %s\n    line: %d\n    snippet: %q\n", paths[fi], line, strings.TrimSpace(snippet))
			}
			st.Citations++
		}
		fmt.Fprintf(&b, "links:\n  - related: mem-%05d\ntags: [generated]\nconfidence: 1.0\n---\n\n# Memory %d\n\nSome prose about the code.\n", (m+1)%o.Memories, m)
		if err := write(dir, fmt.Sprintf(".serena/memories/topic%02d/mem-%05d.md", m%20, m), b.String()); err != nil {
			return st, err
		}
	}
	st.Memories = o.Memories
	for p := range cited {
		st.CitedFiles = append(st.CitedFiles, p)
	}
	if o.Commit {
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "generated"}} {
			if err := git(ctx, dir, args...); err != nil {
				return st, err
			}
		}
	}
	return st, nil
}

func sourceFile(i, lines int) string {
	var b strings.Builder
	for l := 1; l <= lines; l++ {
		b.WriteString(lineText(i, l))
		b.WriteByte('\n')
	}
	return b.String()
}

// lineText is the text of line l of file i.
func lineText(i, l int) string {
	switch {
	case l == 1:
		return fmt.Sprintf("package pkg%03d", i/100)
	case l%10 == 0:
		return "}"
	case l%10 == 1:
		return fmt.Sprintf("func Function%05d_%03d(arg%d int) (int, error) {", i, l, l)
	default:
		return fmt.Sprintf("\tvalue%d := compute(arg%d, %d) // file %d line %d", l, l/10*10+1, i, i, l)
	}
}

func write(dir, rel, content string) error {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}
