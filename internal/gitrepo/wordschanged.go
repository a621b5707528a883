package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// WordsChangedIn answers WordChangedIn(from, head, words[i], pathspecs[i])
// for every i, with one git log for the words it can answer together:
// git log --first-parent --no-renames --pickaxe-all -p -G'\b(w1|w2|…)\b'
// from..head -- (every pathspec), then, for each word, the newest commit
// whose diff of one of its own files adds or removes a line holding it as
// a word (regexp \b semantics). That is the commit git log -G'\bword\b'
// -- its files names: the commits of the range that change its files are
// among those the union walks, in the same order; the diff of a file is
// the same whichever other files are asked about, but for renames (and
// copies), which git pairs only among the files a log asks about. So a
// word is asked alone (WordChangedIn) when a commit it would look at adds
// a file of its own (a rename or copy could pair it), when its pathspecs
// are not plain paths (globs, magic, none: every file), when it has one
// file and log.follow is set (git log then follows that file), or when
// its answer would depend on git's locale (a byte outside ASCII next to
// it, or in it).
func (h *History) WordsChangedIn(ctx context.Context, from, head gitblame.Hash, words []string, pathspecs [][]string) ([]gitblame.Hash, error) {
	out := make([]gitblame.Hash, len(words))
	alone := make([]bool, len(words))
	follow := false
	for _, ps := range pathspecs {
		if len(ps) == 1 {
			follow = h.logFollow(ctx)
			break
		}
	}
	fromChain := h.wordsFromChain(ctx, from, head, words, pathspecs, follow, out)
	var batch []int
	for i, w := range words {
		if fromChain[i] {
			continue
		}
		if !batchable(w, pathspecs[i], follow) {
			alone[i] = true
			continue
		}
		batch = append(batch, i)
	}
	if len(batch) == 1 {
		alone[batch[0]] = true
		batch = nil
	}
	if len(batch) > 0 {
		if err := h.wordsChangedTogether(ctx, from, head, words, pathspecs, batch, out, alone); err != nil {
			return nil, err
		}
	}
	for i := range words {
		if !alone[i] {
			continue
		}
		c, err := h.WordChangedIn(ctx, from, head, words[i], pathspecs[i])
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// logFollow reports whether log.follow may be on (git log then follows a
// single path's renames).
func (h *History) logFollow(ctx context.Context) bool {
	h.followOnce.Do(func() {
		out, err := h.repo.cmd().Run(ctx, "config", "--type=bool", "--get", "log.follow")
		h.follow = err != nil && ExitCode(err) != 1 || strings.TrimSpace(string(out)) == "true"
	})
	return h.follow
}

// batchable reports whether a word's answer can be read from a log of
// other words' too (wordsChangedTogether, wordsFromChain): a plain word
// in plain paths, not one path that git log would follow.
func batchable(w string, paths []string, follow bool) bool {
	return plainWord(w) && plainPaths(paths) && !(len(paths) == 1 && follow)
}

// plainWord: ASCII only, so that git's \b and ours agree in every locale.
func plainWord(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 || w[i] == '\n' {
			return false
		}
	}
	return true
}

// plainPaths: pathspecs that name files literally (no glob, no magic).
func plainPaths(ps []string) bool {
	if len(ps) == 0 {
		return false
	}
	for _, p := range ps {
		if p == "" || p[0] == ':' || strings.ContainsAny(p, "*?[\\\n") || strings.HasSuffix(p, "/") {
			return false
		}
	}
	return true
}

// wordsChangedTogether answers the words of batch with one log; a word
// it cannot answer exactly is marked alone.
func (h *History) wordsChangedTogether(ctx context.Context, from, head gitblame.Hash, words []string, pathspecs [][]string, batch []int, out []gitblame.Hash, alone []bool) error {
	q := make([]string, 0, len(batch))
	seenPath := map[string]bool{}
	var paths []string
	files := make(map[int]map[string]bool, len(batch))
	for _, i := range batch {
		q = append(q, regexpQuote(words[i]))
		files[i] = map[string]bool{}
		for _, p := range pathspecs[i] {
			files[i][p] = true
			if !seenPath[p] {
				seenPath[p] = true
				paths = append(paths, p)
			}
		}
	}
	args := []string{"-c", "core.quotePath=false", "log", "--first-parent", "--no-renames", "--pickaxe-all",
		"-G", `\b(` + strings.Join(q, "|") + `)\b`,
		// the diff pickaxe makes: myers, no whitespace rules (the lines it
		// adds or removes as a set do not depend on the heuristics)
		"--diff-algorithm=myers", "-p", "--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/",
		"--format=%x01%H", from.String() + ".." + head.String(), "--"}
	data, err := h.repo.cmd().Run(ctx, append(args, paths...)...)
	if err != nil {
		return fmt.Errorf("log -G of %d words: %w", len(batch), err)
	}
	open := map[int]bool{}
	for _, i := range batch {
		open[i] = true
	}
	for _, c := range parseWordLog(data) {
		if len(open) == 0 {
			break
		}
		for i := range open {
			added, hit, unsure := c.look(words[i], files[i])
			switch {
			case added || unsure:
				// a rename git would pair for this word's files alone, or
				// a locale-dependent boundary: ask git about it alone
				alone[i] = true
				delete(open, i)
			case hit:
				out[i] = c.hash
				delete(open, i)
			}
		}
	}
	return nil
}

// wordLogCommit is one commit of the log wordsChangedTogether reads.
type wordLogCommit struct {
	hash  gitblame.Hash
	files []wordLogFile
	// unknown: a file added whose path was not read
	unknown bool
}

type wordLogFile struct {
	path  string
	added bool
	lines [][]byte // the lines the diff adds or removes, without + or -
}

// look reports whether the commit adds one of files (or a file of
// unknown path), holds word in a line it adds or removes in one of files,
// and whether that answer depends on the locale.
func (c *wordLogCommit) look(word string, files map[string]bool) (added, hit, unsure bool) {
	if c.unknown {
		return true, false, false
	}
	for _, f := range c.files {
		if !files[f.path] {
			continue
		}
		if f.added {
			return true, false, false
		}
		for _, l := range f.lines {
			h, u := hasWord(l, word)
			if u {
				unsure = true
			}
			if h {
				hit = true
			}
		}
	}
	if unsure {
		return false, false, true
	}
	return false, hit, false
}

// hasWord reports whether line holds word where regexp's \bword\b
// matches (a word character, ASCII letter, digit or _, on one side of
// each end and not the other), and whether a byte outside ASCII next to
// an occurrence makes the answer depend on the locale.
func hasWord(line []byte, word string) (hit, unsure bool) {
	for off := 0; ; {
		i := bytes.Index(line[off:], []byte(word))
		if i < 0 {
			return hit, unsure
		}
		i += off
		end := i + len(word)
		var before, after byte
		if i > 0 {
			before = line[i-1]
		}
		if end < len(line) {
			after = line[end]
		}
		if before >= 0x80 || after >= 0x80 {
			unsure = true
		} else if isWordByte(before) != isWordByte(word[0]) && isWordByte(word[len(word)-1]) != isWordByte(after) {
			hit = true
		}
		off = i + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// parseWordLog reads the commits and patches of the log
// wordsChangedTogether runs.
func parseWordLog(data []byte) []*wordLogCommit {
	var out []*wordLogCommit
	var c *wordLogCommit
	var f *wordLogFile
	inHunk := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
	for sc.Scan() {
		l := sc.Bytes()
		switch {
		case len(l) > 0 && l[0] == 1:
			h, err := gitblame.ParseHash(string(l[1:]))
			if err != nil {
				c = nil
				continue
			}
			c = &wordLogCommit{hash: h}
			out = append(out, c)
			f, inHunk = nil, false
		case c == nil:
		case bytes.HasPrefix(l, []byte("diff --git ")):
			c.files = append(c.files, wordLogFile{path: diffGitPath(string(l[len("diff --git "):]))})
			f, inHunk = &c.files[len(c.files)-1], false
		case f == nil:
		case inHunk && len(l) > 0 && (l[0] == '+' || l[0] == '-'):
			// the scanner reuses its buffer: keep a copy
			f.lines = append(f.lines, bytes.Clone(l[1:]))
		case inHunk:
			// context, "\ No newline at end of file", a new hunk
		case bytes.HasPrefix(l, []byte("@@")):
			inHunk = true
		case bytes.HasPrefix(l, []byte("new file mode ")):
			f.added = true
		case bytes.HasPrefix(l, []byte("+++ b/")), bytes.HasPrefix(l, []byte(`+++ "b/`)):
			f.path = unquotePath(string(l[4:]), "b/")
		case bytes.HasPrefix(l, []byte("--- a/")), bytes.HasPrefix(l, []byte(`--- "a/`)):
			f.path = unquotePath(string(l[4:]), "a/")
		}
	}
	for _, c := range out {
		for _, f := range c.files {
			if f.added && f.path == "" {
				c.unknown = true
			}
		}
	}
	return out
}

// diffGitPath reads the path of "a/P b/P" (no rename: both the same);
// "" when it is quoted or ambiguous (the ---/+++ lines name it then).
func diffGitPath(s string) string {
	if strings.HasPrefix(s, `"`) || (len(s)-5)%2 != 0 || len(s) < 7 {
		return ""
	}
	k := (len(s) - 5) / 2
	if !strings.HasPrefix(s, "a/") || s[2+k:5+k] != " b/" || s[2:2+k] != s[5+k:] {
		return ""
	}
	return s[2 : 2+k]
}

// unquotePath reads a path git printed, C-quoted or not, without prefix.
func unquotePath(s, prefix string) string {
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			return ""
		}
		s = u
	} else {
		s = strings.TrimSuffix(s, "\t") // git ends names with spaces by a tab
	}
	return strings.TrimPrefix(s, prefix)
}
