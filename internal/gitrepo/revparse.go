package gitrepo

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-memcite/git-memcite/internal/regfile"
)

// The revisions git-memcite resolves nearly always are HEAD, a branch or
// tag name, perhaps with ~N and ^N steps. Starting git for each costs a
// few milliseconds, so resolveInProcess answers those forms by reading the
// refs and objects as git does, and leaves everything else to git: every
// other syntax, and every case where git would refuse, warn its way past a
// broken ref, or read something this code does not (replace refs, grafts,
// shallow boundaries, per-worktree refs, another ref or object store).
// Declining costs only the git process the fast path would have saved, so
// it declines whenever it is not certain.

// revisionEnv are the environment variables, besides layoutEnv, that
// change which ref or object a revision names: with any set, git is asked.
var revisionEnv = []string{"GIT_REPLACE_REF_BASE", "GIT_NO_REPLACE_OBJECTS", "GIT_GRAFT_FILE",
	"GIT_SHALLOW_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_QUARANTINE_PATH"}

// revParseRules are the names git tries for a short name, in order
// (ref_rev_parse_rules in git's refs.c). The first that resolves wins,
// even when a later one exists too (git warns that the name is ambiguous).
var revParseRules = []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"}

// maxSymrefReads is how many refs git reads to resolve one name
// (SYMREF_MAXDEPTH): a chain of symbolic refs longer than that does not
// resolve.
const maxSymrefReads = 5

// maxRevStep bounds N in ~N and ^N. git takes any N up to INT_MAX, but
// a walk that long is git's to make.
const maxRevStep = 1_000_000

// maxTagDepth bounds a chain of tags of tags.
const maxTagDepth = 32

// sha1HexLen is the length of a SHA-1 object name in hexadecimal, the one
// object format the fast path reads.
const sha1HexLen = 40

// revStep is one suffix step of a revision: ^N, the N-th parent, or ~N,
// N first-parent steps. N == 0 is the commit itself for both.
type revStep struct {
	nth bool // ^N; false for ~N
	n   int
}

// resolveInProcess resolves rev as `git rev-parse --verify REV^{commit}`
// would when rev is a ref name, HEAD or @, followed by ~N and ^N steps,
// and reports false whenever git must answer instead (see the comment at
// the top of this file), including for every revision git refuses, so
// that the refusal is git's.
func (r *Repo) resolveInProcess(rev string) (OID, bool) {
	base, steps, ok := parseSimpleRevision(rev)
	if !ok {
		return "", false
	}
	if r.RefFormat != "" && r.RefFormat != "files" {
		return "", false
	}
	// Per-worktree refs (HEAD, ORIG_HEAD, refs/worktree/…) live in the
	// worktree's git dir, the others in the common dir: only where the two
	// are one does a ref name map to one file.
	if r.GitDir == "" || filepath.Clean(r.GitDir) != filepath.Clean(r.CommonDir) {
		return "", false
	}
	for _, envs := range [][]string{layoutEnv, revisionEnv} {
		for _, v := range envs {
			if os.Getenv(v) != "" {
				return "", false
			}
		}
	}
	objs, err := r.objects()
	if err != nil || forceGitBinary.Load() {
		return "", false
	}
	refs, ok := readRefFiles(r.CommonDir)
	if !ok {
		return "", false
	}
	// Grafts and replace objects change what a commit's parents are (and
	// what object a name reads as); a shallow boundary removes parents.
	if !absent(filepath.Join(r.CommonDir, "info", "grafts")) {
		return "", false
	}
	if ents, err := os.ReadDir(filepath.Join(r.CommonDir, "refs", "replace")); len(ents) > 0 || (err != nil && !errors.Is(err, fs.ErrNotExist)) {
		return "", false
	}
	if len(steps) > 0 && (r.Shallow || !absent(filepath.Join(r.CommonDir, "shallow"))) {
		return "", false
	}

	var tip plumbing.Hash
	found := false
	for _, rule := range revParseRules {
		h, ok, exists := refs.resolve(strings.Replace(rule, "%s", base, 1))
		if !ok {
			return "", false
		}
		if exists {
			tip, found = h, true
			break
		}
	}
	if !found {
		return "", false // git's "unknown revision", or a form this code does not know
	}
	c, parents, ok := peelToCommit(objs, tip)
	if !ok {
		return "", false
	}
	for _, s := range steps {
		n := s.n
		if s.nth && n > 0 {
			if n > len(parents) {
				return "", false
			}
			c, n = parents[n-1], 0
			if parents, ok = commitParents(objs, c); !ok {
				return "", false
			}
		}
		for ; n > 0; n-- {
			if len(parents) == 0 {
				return "", false
			}
			c = parents[0]
			if parents, ok = commitParents(objs, c); !ok {
				return "", false
			}
		}
	}
	return OID(c.String()), true
}

// parseSimpleRevision splits rev into its base name and suffix steps, and
// reports false for anything but a ref name, HEAD or @ followed by ~, ~N,
// ^ and ^N (N decimal). A base that is all hexadecimal from 4 digits on
// could name an object as well as a ref; git's ambiguity rules decide
// those.
func parseSimpleRevision(rev string) (base string, steps []revStep, ok bool) {
	i := strings.IndexAny(rev, "~^")
	if i < 0 {
		i = len(rev)
	}
	base = rev[:i]
	if base == "@" { // git's shorthand for HEAD
		base = "HEAD"
	}
	if !validRefName(base) || strings.HasPrefix(base, "-") || (len(base) >= 4 && isHex(base)) {
		return "", nil, false
	}
	for rest := rev[i:]; rest != ""; {
		j := 1
		for j < len(rest) && '0' <= rest[j] && rest[j] <= '9' {
			j++
		}
		s := revStep{nth: rest[0] == '^', n: 1}
		if digits := rest[1:j]; digits != "" {
			n, err := strconv.Atoi(digits)
			if err != nil || n > maxRevStep {
				return "", nil, false
			}
			s.n = n
		}
		steps = append(steps, s)
		if rest = rest[j:]; rest != "" && rest[0] != '~' && rest[0] != '^' {
			return "", nil, false
		}
	}
	return base, steps, true
}

// validRefName reports whether name is a ref name git accepts
// (git check-ref-format --allow-onelevel) made only of ASCII letters,
// digits and . _ / -, the characters of nearly every branch and tag name.
// Names with other characters are left to git.
func validRefName(name string) bool {
	if name == "" || strings.Contains(name, "..") || strings.HasSuffix(name, ".") {
		return false
	}
	for _, comp := range strings.Split(name, "/") {
		if comp == "" || comp[0] == '.' || strings.HasSuffix(comp, ".lock") {
			return false
		}
		for i := 0; i < len(comp); i++ {
			c := comp[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
				return false
			}
		}
	}
	return true
}

// rootRefName reports whether name is HEAD or a pseudo-ref like ORIG_HEAD:
// git reads those from a file of that name in the git dir. FETCH_HEAD and
// MERGE_HEAD are not among them: git reads them its own way.
func rootRefName(name string) bool {
	if name == "HEAD" {
		return true
	}
	if name == "FETCH_HEAD" || name == "MERGE_HEAD" || !strings.HasSuffix(name, "_HEAD") {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !('A' <= c && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}

// refFiles reads refs of the "files" format the way git's files backend
// does: a loose file under the git dir, else a line of packed-refs. It is
// not go-git's reference storage, which answers differently from git
// where it matters here: it falls back to packed-refs for an empty or
// unreadable loose file, reads unparsable content as an object name,
// refuses one-level names and follows symbolic refs without git's depth
// limit.
type refFiles struct {
	dir    string
	packed []byte
}

// readRefFiles reads the packed refs of the git dir, and reports false
// where git must be asked: an unreadable or unterminated packed-refs
// file, or one that holds replace refs.
func readRefFiles(dir string) (*refFiles, bool) {
	b, err := regfile.ReadFile(filepath.Join(dir, "packed-refs"))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		b = nil
	case err != nil:
		return nil, false
	case len(b) > 0 && b[len(b)-1] != '\n':
		return nil, false // git dies on an unterminated line
	case bytes.Contains(b, []byte(" refs/replace/")):
		return nil, false
	}
	return &refFiles{dir: dir, packed: b}, true
}

// resolve follows name through symbolic refs to an object name, as git's
// refs_resolve_ref_unsafe does for reading. exists is false for a name
// that does not resolve to an object name (missing, or a symbolic ref to
// a missing ref), which git passes over to try the next rule; ok is false
// where git must be asked.
func (f *refFiles) resolve(name string) (h plumbing.Hash, ok, exists bool) {
	for range maxSymrefReads {
		target, h, ok, exists := f.read(name)
		if !ok || !exists || target == "" {
			return h, ok, exists
		}
		// git refuses a symbolic ref whose target is no ref name and
		// passes over it; such oddities are git's to handle.
		if !validRefName(target) || (!strings.HasPrefix(target, "refs/") && !rootRefName(target)) {
			return plumbing.ZeroHash, false, false
		}
		name = target
	}
	return plumbing.ZeroHash, false, false
}

// read reads one ref without following it: an object name, or the target
// of a symbolic ref.
func (f *refFiles) read(name string) (target string, h plumbing.Hash, ok, exists bool) {
	if strings.HasPrefix(name, "main-worktree/") || strings.HasPrefix(name, "worktrees/") {
		// git reads these from another worktree's git dir
		return "", plumbing.ZeroHash, false, false
	}
	if !strings.HasPrefix(name, "refs/") && !rootRefName(name) {
		// git reads any file of the git dir named like this (git 2.39
		// does; later versions refuse most of them). Only where none
		// exists, loose or packed, is the answer the same for both.
		if !absent(filepath.Join(f.dir, filepath.FromSlash(name))) {
			return "", plumbing.ZeroHash, false, false
		}
		_, ok, exists := f.packedRef(name)
		return "", plumbing.ZeroHash, ok && !exists, false
	}
	p := filepath.Join(f.dir, filepath.FromSlash(name))
	fi, err := os.Lstat(p)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return "", plumbing.ZeroHash, false, false
	case err != nil, fi.IsDir():
		// no loose ref (a directory holds refs below it): packed-refs
		// decides
		h, ok, exists := f.packedRef(name)
		return "", h, ok, exists
	case !fi.Mode().IsRegular():
		return "", plumbing.ZeroHash, false, false // git reads symbolic links its own way
	}
	b, err := regfile.ReadFile(p)
	if err != nil {
		return "", plumbing.ZeroHash, false, false
	}
	s := strings.TrimRight(string(b), " \t\n\r")
	if t, ok := strings.CutPrefix(s, "ref:"); ok {
		return strings.TrimLeft(t, " \t\n\r"), plumbing.ZeroHash, true, true
	}
	if h, ok := parseHex(s); ok {
		return "", h, true, true
	}
	// anything else is a broken ref that git passes over with a warning
	return "", plumbing.ZeroHash, false, false
}

// packedRef looks name up in packed-refs. git reads the file as sorted
// records; a name recorded twice means the file is not what git wrote,
// and git is asked.
func (f *refFiles) packedRef(name string) (h plumbing.Hash, ok, exists bool) {
	needle := []byte(" " + name + "\n")
	n := 0
	for i := 0; ; {
		k := bytes.Index(f.packed[i:], needle)
		if k < 0 {
			break
		}
		at := i + k
		i = at + 1
		start := at - sha1HexLen
		if start < 0 || (start > 0 && f.packed[start-1] != '\n') {
			continue
		}
		hh, isHash := parseHex(string(f.packed[start:at]))
		if !isHash {
			continue
		}
		h, n = hh, n+1
	}
	switch n {
	case 0:
		return plumbing.ZeroHash, true, false
	case 1:
		return h, true, true
	}
	return plumbing.ZeroHash, false, false
}

// peelToCommit reads the object h names, peeling annotated tags, and
// returns the commit it comes to and that commit's parents. It reports
// false for anything else (a tree, a blob, a missing or malformed object):
// git's refusal.
func peelToCommit(objs *objects, h plumbing.Hash) (plumbing.Hash, []plumbing.Hash, bool) {
	want := plumbing.AnyObject
	for range maxTagDepth {
		t, data, ok := readObject(objs, h)
		if !ok || (want != plumbing.AnyObject && t != want) {
			return plumbing.ZeroHash, nil, false // git refuses a tag that lies about its object's type
		}
		switch t {
		case plumbing.CommitObject:
			parents, ok := parseParents(data)
			return h, parents, ok
		case plumbing.TagObject:
			if h, want, ok = parseTagTarget(data); !ok {
				return plumbing.ZeroHash, nil, false
			}
		default:
			return plumbing.ZeroHash, nil, false
		}
	}
	return plumbing.ZeroHash, nil, false
}

// commitParents returns the parents of the commit h. A parent that is
// missing or not a commit is git's error to report.
func commitParents(objs *objects, h plumbing.Hash) ([]plumbing.Hash, bool) {
	t, data, ok := readObject(objs, h)
	if !ok || t != plumbing.CommitObject {
		return nil, false
	}
	return parseParents(data)
}

// readObject reads the object h names. Like git's parse_object it checks
// that the content hashes to h: a corrupt object is git's to report.
func readObject(objs *objects, h plumbing.Hash) (plumbing.ObjectType, []byte, bool) {
	typ, data, err := objs.cat.object(h.String())
	if err != nil {
		return plumbing.InvalidObject, nil, false
	}
	t, err := plumbing.ParseObjectType(typ)
	if err != nil || plumbing.ComputeHash(t, data) != h {
		return plumbing.InvalidObject, nil, false
	}
	return t, data, true
}

// parseParents reads a commit's parents as git's parse_commit_buffer
// does: the "parent" lines that directly follow the "tree" line. A commit
// git would call bogus reports false.
func parseParents(data []byte) ([]plumbing.Hash, bool) {
	const hexLen = sha1HexLen
	const treeLen = len("tree ") + hexLen
	if len(data) <= treeLen+1 || !bytes.HasPrefix(data, []byte("tree ")) || data[treeLen] != '\n' {
		return nil, false
	}
	if _, ok := parseHex(string(data[len("tree "):treeLen])); !ok {
		return nil, false
	}
	rest := data[treeLen+1:]
	var parents []plumbing.Hash
	const parentLen = len("parent ") + hexLen
	for bytes.HasPrefix(rest, []byte("parent ")) {
		// git reads a parent line only when more follows it
		if len(rest) <= parentLen+1 || rest[parentLen] != '\n' {
			return nil, false
		}
		h, ok := parseHex(string(rest[len("parent "):parentLen]))
		if !ok {
			return nil, false
		}
		parents = append(parents, h)
		rest = rest[parentLen+1:]
	}
	return parents, true
}

// parseTagTarget reads the object a tag points at and the type the tag
// declares for it, and reports false for a tag git's parse_tag_buffer
// refuses (it requires the object, type and tag lines, in that order).
func parseTagTarget(data []byte) (plumbing.Hash, plumbing.ObjectType, bool) {
	const hexLen = sha1HexLen
	rest, ok := bytes.CutPrefix(data, []byte("object "))
	if !ok || len(data) < hexLen+24 || rest[hexLen] != '\n' {
		return plumbing.ZeroHash, plumbing.InvalidObject, false
	}
	h, ok := parseHex(string(rest[:hexLen]))
	if !ok {
		return plumbing.ZeroHash, plumbing.InvalidObject, false
	}
	rest, ok = bytes.CutPrefix(rest[hexLen+1:], []byte("type "))
	typ, rest, nl := bytes.Cut(rest, []byte("\n"))
	if !ok || !nl || len(rest) <= len("tag ") || !bytes.HasPrefix(rest, []byte("tag ")) || bytes.IndexByte(rest, '\n') < 0 {
		return plumbing.ZeroHash, plumbing.InvalidObject, false
	}
	var t plumbing.ObjectType
	switch string(typ) {
	case "commit":
		t = plumbing.CommitObject
	case "tag":
		t = plumbing.TagObject
	case "tree":
		t = plumbing.TreeObject
	case "blob":
		t = plumbing.BlobObject
	default:
		return plumbing.ZeroHash, plumbing.InvalidObject, false
	}
	return h, t, true
}

// parseHex reads a full SHA-1 object name in either case, as git does.
func parseHex(s string) (plumbing.Hash, bool) {
	if len(s) != sha1HexLen || !isHex(s) {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(strings.ToLower(s)), true
}

// absent reports whether nothing exists at p. An error other than "does
// not exist" counts as something there: the caller asks git.
func absent(p string) bool {
	_, err := os.Lstat(p)
	return errors.Is(err, fs.ErrNotExist)
}
