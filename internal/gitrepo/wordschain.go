package gitrepo

import (
	"bytes"
	"context"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// maxChainVersions bounds the versions of one file wordsFromChain reads
// for one word; past it git is asked.
const maxChainVersions = 64

// binaryProbe is how much of a blob git looks at for a NUL to call it
// binary (buffer_is_binary).
const binaryProbe = 8000

// wordsFromChain answers what git log -G'\bword\b' from..head -- files
// answers (WordChangedIn) for the words it can, from the log of the whole
// first-parent chain Moves read (pathIndex) and the contents of the
// files' versions, with no git log: done[i] says it answered words[i]
// into out[i].
//
// A commit's diff of a file adds or removes a line holding the word
// whenever the number of the file's lines holding it differs on its two
// sides; when the number is the same and is not zero an edit may still
// touch such a line, which only a diff tells: the word is then left to
// git. Walking the versions from head back, the newest commit whose
// number differs is the answer, as long as every version after it holds
// the word in no line (which the walk stops at otherwise). A word is left
// to git as well when it is not ASCII (git's \b then depends on the
// locale) or next to a byte outside ASCII; when a file of its own is
// added in the range (git's rename detection may pair it with another of
// them, and its diff then holds only the lines that changed), binary (a
// NUL in its first 8000 bytes, where git's -G looks at nothing) or given
// a diff attribute (a driver may convert it; -diff makes it binary); when
// its files are not plain paths, or one file with log.follow set; when
// from is not on the chain, or a file changes more than 64 times in the
// range.
func (h *History) wordsFromChain(ctx context.Context, from, head gitblame.Hash, words []string, pathspecs [][]string, follow bool, out []gitblame.Hash) []bool {
	done := make([]bool, len(words))
	ix := h.repo.paths.Load()
	if ix == nil {
		return done
	}
	if ix.listHead(h) != nil {
		return done
	}
	ix.mu.RLock()
	kFrom, on := ix.pos[from]
	onHead := len(ix.order) > 0 && ix.order[0] == head
	ix.mu.RUnlock()
	if !on || !onHead {
		return done
	}
	// the files of the words git's answer to a batch could be
	var paths []string
	seen := map[string]bool{}
	for i, w := range words {
		if !batchable(w, pathspecs[i], follow) {
			continue
		}
		for _, p := range pathspecs[i] {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	if len(paths) == 0 {
		return done
	}
	plain := h.plainDiff(ctx, paths)
	// the versions of each file in the range, newest first: head's, then
	// the one before each change
	versions := map[string][]chainVersion{} // (none for a file left to git)
	ix.mu.RLock()
	for _, p := range paths {
		if !plain[p] {
			continue
		}
		vs := []chainVersion{{pos: -1, blob: ix.headFiles[p]}}
		ok := true
		for _, ch := range ix.byPath[p] {
			if ch.pos >= kFrom {
				break
			}
			if !ch.present || len(vs) > maxChainVersions {
				ok = false // added in the range, or too many versions
				break
			}
			vs = append(vs, chainVersion{pos: ch.pos, blob: ch.blob})
		}
		if ok {
			versions[p] = vs
		}
	}
	order := ix.order
	ix.mu.RUnlock()
	// the contents, read in one batch
	var blobs []gitblame.Hash
	want := map[gitblame.Hash]bool{}
	for _, vs := range versions {
		for _, v := range vs {
			if !v.blob.IsZero() && !want[v.blob] {
				want[v.blob] = true
				blobs = append(blobs, v.blob)
			}
		}
	}
	contents := make(map[gitblame.Hash][]byte, len(blobs))
	if len(blobs) > 0 {
		h.Blobs(blobs, func(i int, data []byte, err error) {
			if err == nil {
				contents[blobs[i]] = bytes.Clone(data)
			}
		})
	}
	if ctx.Err() != nil {
		return done
	}
	for i, w := range words {
		if !batchable(w, pathspecs[i], follow) {
			continue
		}
		best, sure := int32(-1), true
		for _, p := range pathspecs[i] {
			vs, ok := versions[p]
			if !ok {
				sure = false
				break
			}
			pos, ok := newestTouch(vs, w, contents)
			if !ok {
				sure = false
				break
			}
			if pos >= 0 && (best < 0 || pos < best) {
				best = pos
			}
		}
		if !sure {
			continue
		}
		done[i] = true
		if best >= 0 {
			out[i] = order[best]
		}
	}
	return done
}

// chainVersion is a version of a file: the blob before the change of the
// commit at pos on the chain (-1: the head's), zero for no regular file.
type chainVersion struct {
	pos  int32
	blob gitblame.Hash
}

// newestTouch walks a file's versions from the newest (vs[0], head's)
// back and returns the place of the newest commit whose diff adds or
// removes a line holding word (-1: none in the range), and false when
// the versions cannot tell (wordsFromChain's conditions).
func newestTouch(vs []chainVersion, word string, contents map[gitblame.Hash][]byte) (int32, bool) {
	count := func(b gitblame.Hash) (int, bool) {
		if b.IsZero() {
			return 0, true
		}
		data, ok := contents[b]
		if !ok || bytes.IndexByte(data[:min(len(data), binaryProbe)], 0) >= 0 {
			return 0, false // missing, or binary
		}
		return linesWithWord(data, word)
	}
	after, ok := count(vs[0].blob)
	if !ok {
		return 0, false
	}
	for k, v := range vs[1:] {
		if v.blob == vs[k].blob {
			continue // the same content (a mode changed): no line changed
		}
		before, ok := count(v.blob)
		switch {
		case !ok:
			return 0, false
		case before != after:
			return v.pos, true
		case before > 0:
			return 0, false // the same number of lines: a diff would tell
		}
		after = before
	}
	return -1, true
}

// linesWithWord counts the lines of data that hold word where git's
// \bword\b matches (hasWord); false when a byte outside ASCII next to an
// occurrence makes that depend on the locale.
func linesWithWord(data []byte, word string) (int, bool) {
	if !bytes.Contains(data, []byte(word)) {
		return 0, true
	}
	n := 0
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		if hit, unsure := hasWord(line, word); unsure {
			return 0, false
		} else if hit {
			n++
		}
		data = rest
	}
	return n, true
}

// plainDiff tells the paths git diffs as their blobs' text (git
// check-attr, from the attributes git log reads): the diff attribute
// unspecified or set, or naming a driver (python, cpp, ...: the function
// names of hunks) with no textconv and no binary setting in the
// configuration. -diff (binary), or a driver that converts, is not plain.
// No path is plain when git cannot be asked.
func (h *History) plainDiff(ctx context.Context, paths []string) map[string]bool {
	out := map[string]bool{}
	// the drivers that convert or call content binary
	h.driversOnce.Do(func() {
		cfg, err := h.repo.cmd().Run(ctx, "config", "-z", "--get-regexp", `^diff\..*\.(textconv|binary)$`)
		if err != nil && ExitCode(err) != 1 { // 1: none set
			return
		}
		h.drivers = map[string]bool{}
		for _, kv := range strings.Split(string(cfg), "\x00") {
			k, _, _ := strings.Cut(kv, "\n")
			if name, ok := strings.CutPrefix(k, "diff."); ok {
				if i := strings.LastIndexByte(name, '.'); i > 0 {
					h.drivers[name[:i]] = true
				}
			}
		}
	})
	converts := h.drivers
	if converts == nil {
		return out
	}
	for len(paths) > 0 {
		n := min(len(paths), 256) // (a command line of bounded length)
		args := append([]string{"check-attr", "-z", "diff", "--"}, paths[:n]...)
		paths = paths[n:]
		data, err := h.repo.cmd().Run(ctx, args...)
		if err != nil {
			return map[string]bool{}
		}
		// path NUL attribute NUL value NUL ...
		fields := strings.Split(string(data), "\x00")
		for i := 0; i+2 < len(fields); i += 3 {
			switch v := fields[i+2]; v {
			case "unset":
			case "unspecified", "set":
				out[fields[i]] = true
			default:
				out[fields[i]] = !converts[v]
			}
		}
	}
	return out
}
