package gitrepo

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/git-memcite/git-memcite/internal/regfile"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// Content conversion by attributes (docs/repositories.md, "What --staged
// reads"; docs/cache.md, "Names of content").
//
// git may convert a file's content between the working tree and its blob
// (convert.c): line endings (text, eol, the older crlf, core.autocrlf),
// $Id$ (ident), clean and smudge filters (filter) and encodings
// (working-tree-encoding). Where it may, a working-tree file whose stat
// data matches its index entry is not known to hold the blob's bytes: it
// is named by its stat data, never by the blob (contentid.go), and
// --staged reads the blob.
//
// Which paths that concerns is decided per path, in-process, from every
// source git reads attributes from: the system file, the global one
// (core.attributesFile, else $XDG_CONFIG_HOME/git/attributes), the
// .gitattributes files of the working tree (below the top: read as paths
// below them are asked) and of the index at every level, and
// $GIT_COMMON_DIR/info/attributes, with macros ([attr]name, binary). A
// path may convert when a line that can set a converting attribute may
// match it (mayConvert): a superset of what git converts, never less.

// systemAttributes returns git's system attributes file, and "" with a
// reason when it is not known (git's system files are where its build
// put them): for a Linux distribution's git, /etc/gitattributes.
var systemAttributes = func() (string, string) {
	if v, ok := envBool("GIT_ATTR_NOSYSTEM"); ok && v {
		return "", ""
	}
	if _, why := systemConfig(); why != "" {
		return "", why
	}
	return "/etc/gitattributes", ""
}

// attrSource is the text of one attributes file.
type attrSource struct {
	info   bool   // $GIT_COMMON_DIR/info/attributes
	name   string // for traces
	dir    string // the directory its patterns are relative to ("": the top)
	data   []byte
	macros bool // may define macros (not a .gitattributes below the top)
}

// conversions says which paths git may convert.
type conversions struct {
	all bool // every path
	// else those rules may convert (mayConvert), asked path by path: a
	// run that names a few files matches only those
	rules   []attrRule
	fold    bool
	infoSrc int
	// below: the working tree's .gitattributes of the directories below
	// the top that the index has none in, read as paths below them are
	// asked (git reads them, tracked or not)
	below *attrDirs
}

func (c *conversions) converts(p string) bool {
	if c == nil || c.all {
		return c != nil
	}
	rules := c.rulesFor(p)
	return len(rules) > 0 && mayConvert(rules, p, c.fold, c.infoSrc)
}

// changesWords reports whether git may change more of p than its line
// endings between the blob and the working tree (ident, a filter, a
// working-tree-encoding), or cannot tell.
func (c *conversions) changesWords(p string) bool {
	if c == nil {
		return false
	}
	if c.all {
		return true
	}
	for _, rl := range c.rulesFor(p) {
		if rl.ident {
			if may, _ := rl.matches(p, c.fold); may {
				return true
			}
		}
	}
	return false
}

// rulesFor returns the rules that may match p: the sources' and those of
// the .gitattributes of the directories above it.
func (c *conversions) rulesFor(p string) []attrRule {
	rules := c.rules
	if c.below != nil {
		for i := 0; ; {
			j := strings.IndexByte(p[i:], '/')
			if j < 0 {
				break
			}
			if more := c.below.rules(p[:i+j]); len(more) > 0 {
				rules = append(rules[:len(rules):len(rules)], more...)
			}
			i += j + 1
		}
	}
	return rules
}

// attrDirs reads the working tree's .gitattributes of directories as they
// are asked for, once each.
type attrDirs struct {
	top    string
	macros map[string][]string
	mu     sync.Mutex
	dirs   map[string][]attrRule // read already (those read with the sources too)
	next   int                   // the source number of the next file read
}

// rules returns the rules of the working tree's .gitattributes of the
// directory d (not the top); a file that cannot be read may convert
// every path below d.
func (a *attrDirs) rules(d string) []attrRule {
	a.mu.Lock()
	defer a.mu.Unlock()
	if rs, ok := a.dirs[d]; ok {
		return rs
	}
	var rs []attrRule
	b, err := regfile.ReadFile(filepath.Join(a.top, filepath.FromSlash(d), ".gitattributes"))
	switch {
	case err == nil:
		rs = rulesOf(attrSource{name: d + "/.gitattributes", dir: d, data: b}, a.next, a.macros)
		a.next++
	case !os.IsNotExist(err) && !errors.Is(err, syscall.ENOTDIR):
		trace.Printf("attributes: %v: every path below %s may convert", err, d)
		rs = []attrRule{{src: -2, dir: d, ident: true}}
	}
	a.dirs[d] = rs
	return rs
}

// attrFile is a .gitattributes file of the index.
type attrFile struct {
	path, oid string
}

// isAttrFile says whether the index path p is a .gitattributes file.
func isAttrFile(p string) bool {
	return p == ".gitattributes" || strings.HasSuffix(p, "/.gitattributes")
}

// conversions finds the paths among files (the regular files of an
// index, whose .gitattributes files are attrFiles) that git may convert,
// in-process: every line of every source that can set a converting
// attribute (convertingRules) is matched against every path, and a path
// any of them may match may convert. Lines that unset an attribute are
// not taken into account, and a pattern this matcher does not read
// exactly (ruleMatches) matches every path below its directory: the
// answer may hold more paths than git converts, never fewer.
func (r *Repo) conversions(files []string, attrFiles []attrFile) *conversions {
	cfg, err := r.Config(context.Background())
	if err != nil {
		trace.Printf("attributes: no configuration (%v): every path may convert", err)
		return &conversions{all: true}
	}
	if v := cfg["core.autocrlf"]; len(v) > 0 && !strings.EqualFold(v[len(v)-1], "false") {
		trace.Printf("attributes: core.autocrlf: every path may convert")
		return &conversions{all: true}
	}
	trace.Printf("attributes: reading the sources for %d paths", len(files))
	srcs, unknown := r.attrSources(cfg, files, attrFiles)
	trace.Printf("attributes: %d sources read", len(srcs))
	if unknown != "" {
		trace.Printf("attributes: %s: every path may convert", unknown)
		return &conversions{all: true}
	}
	macros := macrosOf(srcs)
	var rules []attrRule
	for i, src := range srcs {
		rules = append(rules, rulesOf(src, i, macros)...)
	}
	fold := false
	if v := cfg["core.ignorecase"]; len(v) > 0 {
		fold, _ = strconv.ParseBool(v[len(v)-1])
	}
	infoSrc := slices.IndexFunc(srcs, func(s attrSource) bool { return s.info })
	read := map[string][]attrRule{}
	for _, src := range srcs {
		if src.dir != "" {
			read[src.dir] = nil // (its rules are among rules)
		}
	}
	trace.Printf("attributes: %d lines may convert or unset text: paths are matched as they are named", len(rules))
	if !slices.ContainsFunc(rules, func(rl attrRule) bool { return rl.text || rl.ident }) {
		rules = nil
	}
	return &conversions{rules: rules, fold: fold, infoSrc: infoSrc,
		below: &attrDirs{top: r.Top, macros: macros, dirs: read, next: len(srcs)}}
}

// attrSources reads every attributes file git would read for files (the
// working tree's and the index's .gitattributes both, where they
// differ); a non-empty unknown says that one of them could not be known
// or read.
func (r *Repo) attrSources(cfg map[string][]string, files []string, attrFiles []attrFile) (srcs []attrSource, unknown string) {
	dir := ""
	add := func(name string, macros bool) {
		b, err := regfile.ReadFile(name)
		switch {
		case err == nil:
			srcs = append(srcs, attrSource{false, name, dir, b, macros})
		case !os.IsNotExist(err) && unknown == "":
			unknown = "cannot read " + name
		}
	}
	if p, why := systemAttributes(); why != "" {
		unknown = why
	} else if p != "" {
		add(p, true)
	}
	if v := cfg["core.attributesfile"]; len(v) > 0 && v[len(v)-1] != "" {
		add(expandHome(v[len(v)-1]), true)
	} else if home, err := os.UserHomeDir(); err == nil {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
		add(filepath.Join(xdg, "git", "attributes"), true)
	}
	n := len(srcs)
	add(filepath.Join(r.CommonDir, "info", "attributes"), true)
	if len(srcs) > n {
		srcs[n].info = true
	}
	// the working tree's .gitattributes at the top and in every directory
	// the index has one in (to compare); the others are read as paths
	// below them are asked (attrDirs)
	dirs := map[string]bool{".": true}
	for _, f := range attrFiles {
		dirs[path.Dir(f.path)] = true
	}
	inWorktree := map[string]string{} // .gitattributes path -> its blob id
	for d := range dirs {
		n := len(srcs)
		if dir = d; d == "." {
			dir = ""
		}
		add(filepath.Join(r.Top, filepath.FromSlash(d), ".gitattributes"), d == ".")
		if len(srcs) > n {
			inWorktree[path.Join(d, ".gitattributes")] = r.blobID(srcs[n].data)
		}
	}
	var objs *objects
	for _, f := range attrFiles {
		if inWorktree[f.path] == f.oid {
			continue // read already: the working tree holds the same
		}
		if objs == nil {
			o, err := r.objects()
			if err != nil {
				return srcs, "objects: " + err.Error()
			}
			objs = o
		}
		b, err := objs.readBlob(f.oid)
		if err != nil {
			return srcs, "cannot read " + f.path + " of the index"
		}
		d := path.Dir(f.path)
		if d == "." {
			d = ""
		}
		srcs = append(srcs, attrSource{false, ":" + f.path, d, b, f.path == ".gitattributes"})
	}
	return srcs, unknown
}

// blobID is the object id git gives a blob of content data, in the
// repository's object format.
func (r *Repo) blobID(data []byte) string {
	var h hash.Hash
	if r.ObjectFormat == "sha256" {
		h = sha256.New()
	} else {
		h = sha1.New()
	}
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// expandHome expands a leading ~/ as git does for core.attributesFile.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// attrRule is a line of an attributes file that can set a converting
// attribute or unsets text.
type attrRule struct {
	src  int    // the index of its source
	line int    // its line number there
	dir  string // its source's
	// pat is what the line's pattern matches, when exact; else it may
	// match any path below dir.
	pat   attrPattern
	exact bool
	// ident: the line sets ident, filter or working-tree-encoding; text:
	// it sets text, eol or crlf; unsetText: it unsets text and sets none
	// of them (-text, binary), which leaves eol and crlf converting
	// nothing.
	ident, text, unsetText bool
}

// macrosOf returns the macros the sources define (the top-level ones:
// [attr] lines elsewhere are ignored, as git ignores them), binary
// included.
func macrosOf(srcs []attrSource) map[string][]string {
	macros := map[string][]string{"binary": {"-diff", "-merge", "-text"}}
	for _, s := range srcs {
		if !s.macros {
			continue
		}
		for _, l := range strings.Split(string(s.data), "\n") {
			l = strings.TrimSpace(l)
			if l == "" || l[0] == '#' {
				continue
			}
			pattern, attrs := splitAttrLine(l)
			if name, ok := strings.CutPrefix(pattern, "[attr]"); ok {
				macros[name] = append(macros[name], attrs...)
			}
		}
	}
	return macros
}

// rulesOf returns the lines of the source (number n) that can set a
// converting attribute, directly or through a macro (expanded when set,
// as git expands them), and those that unset text.
func rulesOf(s attrSource, n int, macros map[string][]string) []attrRule {
	// what a list of attributes sets: a converting attribute of either
	// kind, and text unset
	var sets func(attrs []string, depth int, rl *attrRule)
	sets = func(attrs []string, depth int, rl *attrRule) {
		for _, a := range attrs {
			if a == "-text" {
				rl.unsetText = true
			}
			if a == "" || a[0] == '-' || a[0] == '!' {
				continue // unset or unspecified: converts nothing
			}
			name, _, hasValue := strings.Cut(a, "=")
			switch name {
			case "text", "eol", "crlf":
				rl.text = true
			case "ident":
				rl.ident = true
			case "filter", "working-tree-encoding":
				rl.ident = rl.ident || hasValue
			}
			if m, ok := macros[name]; ok && !hasValue && depth < 16 {
				sets(m, depth+1, rl)
			}
		}
	}
	var rules []attrRule
	for i, l := range strings.Split(string(s.data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' {
			continue
		}
		pattern, attrs := splitAttrLine(l)
		if strings.HasPrefix(pattern, "[attr]") {
			continue
		}
		rl := attrRule{src: n, line: i, dir: s.dir}
		sets(attrs, 0, &rl)
		if rl.text || rl.ident {
			rl.unsetText = false // set and unset on one line: taken as set
		}
		if rl.text || rl.ident || rl.unsetText {
			rl.pat, rl.exact = parseAttrPattern(pattern)
			rules = append(rules, rl)
		}
	}
	return rules
}

// attrPattern is what an attributes pattern matches, as git matches it
// (gitignore's rules): a pattern without a slash the base name at any
// depth below its file's directory, one with a slash (a leading one too)
// the path relative to it; `*` and `?` match no slash, a `**` segment
// any number of directories.
type attrPattern struct {
	base bool     // against the base name
	segs []string // else the path's segments
}

// parseAttrPattern returns the pattern, and false for one it does not
// read exactly (brackets, escapes, a trailing slash, `**` within a
// segment, a base name pattern with `**`).
func parseAttrPattern(pat string) (attrPattern, bool) {
	if pat == "" || strings.ContainsAny(pat, "[\\") || strings.HasSuffix(pat, "/") {
		return attrPattern{}, false
	}
	if !strings.Contains(pat, "/") {
		return attrPattern{base: true, segs: []string{pat}}, !strings.Contains(pat, "**")
	}
	segs := strings.Split(strings.TrimPrefix(pat, "/"), "/")
	for _, seg := range segs {
		if seg != "**" && strings.Contains(seg, "**") {
			return attrPattern{}, false
		}
	}
	return attrPattern{segs: segs}, true
}

// match says whether the pattern matches the path p (relative to its
// directory).
func (ap *attrPattern) match(p string) bool {
	if ap.base {
		return globSegment(ap.segs[0], p[strings.LastIndexByte(p, '/')+1:])
	}
	return globPath(ap.segs, p)
}

// globPath matches the segments segs against the path p.
func globPath(segs []string, p string) bool {
	for i, seg := range segs {
		if seg == "**" {
			rest := segs[i+1:]
			if len(rest) == 0 {
				return true
			}
			for {
				if globPath(rest, p) {
					return true
				}
				j := strings.IndexByte(p, '/')
				if j < 0 {
					return false
				}
				p = p[j+1:]
			}
		}
		name, tail, more := strings.Cut(p, "/")
		if !globSegment(seg, name) {
			return false
		}
		if i == len(segs)-1 {
			return !more
		}
		if !more {
			return false
		}
		p = tail
	}
	return p == ""
}

// globSegment matches a pattern of `*`, `?` and other bytes against a
// name without slashes.
func globSegment(pat, name string) bool {
	if !strings.ContainsAny(pat, "*?") {
		return pat == name
	}
	if pat[0] == '*' && !strings.ContainsAny(pat[1:], "*?") {
		return strings.HasSuffix(name, pat[1:])
	}
	// the usual backtracking on the last star
	pi, ni, star, mark := 0, 0, -1, 0
	for ni < len(name) {
		switch {
		case pi < len(pat) && pat[pi] == '*': // before a literal: a '*' in the name is no star
			star, mark = pi, ni
			pi++
		case pi < len(pat) && (pat[pi] == '?' || pat[pi] == name[ni]):
			pi++
			ni++
		case star >= 0:
			pi, mark = star+1, mark+1
			ni = mark
		default:
			return false
		}
	}
	for pi < len(pat) && pat[pi] == '*' {
		pi++
	}
	return pi == len(pat)
}

// matches says whether the rule may match the path p (repo-relative),
// and whether that is sure (may is true and sure false for a pattern the
// matcher does not read exactly, or with fold, core.ignorecase).
func (rl *attrRule) matches(p string, fold bool) (may, sure bool) {
	if rl.dir != "" {
		rest, ok := strings.CutPrefix(p, rl.dir+"/")
		if !ok {
			return false, true
		}
		p = rest
	}
	if !rl.exact || fold {
		return true, false
	}
	return rl.pat.match(p), true
}

// mayConvert says whether git may convert the path p by rules: when a
// rule that sets a converting attribute may match it, unless every such
// rule only sets text, eol or crlf and a later line of its own file, or
// of info/attributes (which git reads in every direction, above every
// other source: infoSrc, -1 when absent), surely matches p and unsets
// text.
func mayConvert(rules []attrRule, p string, fold bool, infoSrc int) bool {
	for i := range rules {
		rl := &rules[i]
		if !rl.text && !rl.ident {
			continue
		}
		if may, _ := rl.matches(p, fold); !may {
			continue
		}
		if rl.ident {
			return true
		}
		unset := false
		for j := range rules {
			u := &rules[j]
			if !u.unsetText || !(u.src == rl.src && u.line > rl.line || u.src == infoSrc && rl.src != infoSrc) {
				continue
			}
			if may, sure := u.matches(p, fold); may && sure {
				unset = true
				break
			}
		}
		if !unset {
			return true
		}
	}
	return false
}

// splitAttrLine splits a line of an attributes file into its pattern (a
// quoted one unquoted) and attributes.
func splitAttrLine(l string) (string, []string) {
	if l[0] == '"' {
		for i := 1; i < len(l); i++ {
			if l[i] == '\\' {
				i++
				continue
			}
			if l[i] == '"' {
				p, err := strconv.Unquote(l[:i+1])
				if err != nil {
					p = l[:i+1]
				}
				return p, strings.Fields(l[i+1:])
			}
		}
	}
	f := strings.Fields(l)
	return f[0], f[1:]
}
