package gitrepo

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"maps"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

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
// is read, never named by the blob, and --staged reads the blob.
//
// Which paths that concerns is decided per path, from every source git
// reads attributes from: the system file, the global one
// (core.attributesFile, else $XDG_CONFIG_HOME/git/attributes), the
// .gitattributes files of the working tree and of the index at every
// level, and $GIT_COMMON_DIR/info/attributes, with macros ([attr]name,
// binary). First every source is scanned: when no line of any of them can
// set a converting attribute (the common case: only linguist-*, diff,
// merge, export-ignore, -text or binary), no path converts and nothing
// more is done. Otherwise git answers for every path, with `git
// check-attr` in both directions (working tree first, and --cached: the
// index only), and a path converts when either answer says it may.

// attrConverting are the attributes whose value can make git convert
// content.
var attrConverting = []string{"text", "eol", "crlf", "ident", "filter", "working-tree-encoding"}

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
	name   string // for traces
	data   []byte
	macros bool // may define macros (not a .gitattributes below the top)
}

// conversions says which paths git may convert.
type conversions struct {
	all   bool            // every path
	paths map[string]bool // else these
}

func (c *conversions) converts(p string) bool {
	return c != nil && (c.all || c.paths[p])
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
// index, whose .gitattributes files are attrFiles) that git may convert:
// with perPath, exactly (git is asked when some attribute may convert);
// without, every path as soon as one may (no git process: a reader that
// then reads blobs loses little).
func (r *Repo) conversions(ctx context.Context, files []string, attrFiles []attrFile, perPath bool) *conversions {
	cfg, err := r.Config(ctx)
	if err != nil {
		trace.Printf("attributes: no configuration (%v): every path may convert", err)
		return &conversions{all: true}
	}
	if v := cfg["core.autocrlf"]; len(v) > 0 && !strings.EqualFold(v[len(v)-1], "false") {
		trace.Printf("attributes: core.autocrlf: every path may convert")
		return &conversions{all: true}
	}
	trace.Printf("attributes: reading the sources for %d paths", len(files))
	srcs, unknown, same := r.attrSources(cfg, files, attrFiles)
	trace.Printf("attributes: %d sources read", len(srcs))
	switch {
	case unknown == "" && !mayConvert(srcs):
		return &conversions{}
	case !perPath:
		trace.Printf("attributes: git may convert some paths: every path is taken as converted")
		return &conversions{all: true}
	case unknown != "":
		trace.Printf("attributes: %s: git is asked", unknown)
	}
	// both directions at once: the working tree's attributes first (what
	// `git add` applies), and the index's (what a checkout applied), unless
	// the working tree's .gitattributes files are the index's
	directions := []bool{false, true}
	if same {
		directions = directions[:1]
	}
	c := &conversions{paths: map[string]bool{}}
	found := make([]map[string]bool, len(directions))
	errs := make([]error, len(directions))
	var wg sync.WaitGroup
	for i, cached := range directions {
		found[i] = map[string]bool{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = r.checkAttr(ctx, files, cached, found[i])
		}()
	}
	wg.Wait()
	for i := range found {
		if errs[i] != nil {
			trace.Printf("attributes: %v: every path may convert", errs[i])
			return &conversions{all: true}
		}
		maps.Copy(c.paths, found[i])
	}
	trace.Printf("attributes: %d of %d paths may be converted by git", len(c.paths), len(files))
	return c
}

// attrSources reads every attributes file git would read for files; a
// non-empty unknown says that one of them could not be known or read;
// same, that the working tree's .gitattributes files are the index's
// (the same paths, the same blobs).
func (r *Repo) attrSources(cfg map[string][]string, files []string, attrFiles []attrFile) (srcs []attrSource, unknown string, same bool) {
	add := func(name string, macros bool) {
		b, err := regfile.ReadFile(name)
		switch {
		case err == nil:
			srcs = append(srcs, attrSource{name, b, macros})
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
	add(filepath.Join(r.CommonDir, "info", "attributes"), true)
	// the working tree's .gitattributes in every directory that holds a
	// file of the index (tracked or not: git reads them both)
	dirs := map[string]bool{".": true}
	last := "."
	for _, f := range files {
		i := strings.LastIndexByte(f, '/')
		if i < 0 || f[:i] == last {
			continue // (files are sorted: a directory's files are together)
		}
		last = f[:i]
		for d := last; !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	inWorktree := map[string]string{} // .gitattributes path -> its blob id
	for d := range dirs {
		n := len(srcs)
		add(filepath.Join(r.Top, filepath.FromSlash(d), ".gitattributes"), d == ".")
		if len(srcs) > n {
			inWorktree[path.Join(d, ".gitattributes")] = r.blobID(srcs[n].data)
		}
	}
	same = len(inWorktree) == len(attrFiles)
	var objs *objects
	for _, f := range attrFiles {
		if inWorktree[f.path] == f.oid {
			continue // read already: the working tree holds the same
		}
		same = false
		if objs == nil {
			o, err := r.objects()
			if err != nil {
				return srcs, "objects: " + err.Error(), false
			}
			objs = o
		}
		b, err := objs.readBlob(f.oid)
		if err != nil {
			return srcs, "cannot read " + f.path + " of the index", false
		}
		srcs = append(srcs, attrSource{":" + f.path, b, f.path == ".gitattributes"})
	}
	return srcs, unknown, same
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

// mayConvert reports whether a line of any source can set a converting
// attribute, directly or through a macro (any macro defined in any
// source, expanded when set, as git expands them).
func mayConvert(srcs []attrSource) bool {
	macros := map[string][]string{"binary": {"-diff", "-merge", "-text"}}
	type line struct{ attrs []string }
	var lines []line
	for _, s := range srcs {
		for _, l := range strings.Split(string(s.data), "\n") {
			l = strings.TrimSpace(l)
			if l == "" || l[0] == '#' {
				continue
			}
			pattern, attrs := splitAttrLine(l)
			if name, ok := strings.CutPrefix(pattern, "[attr]"); ok {
				if s.macros {
					macros[name] = append(macros[name], attrs...)
				}
				continue
			}
			lines = append(lines, line{attrs})
		}
	}
	var converting func(attrs []string, depth int) bool
	converting = func(attrs []string, depth int) bool {
		for _, a := range attrs {
			if a == "" || a[0] == '-' || a[0] == '!' {
				continue // unset or unspecified: converts nothing
			}
			name, _, hasValue := strings.Cut(a, "=")
			for _, c := range attrConverting {
				if name == c && (hasValue || c != "filter" && c != "working-tree-encoding") {
					return true
				}
			}
			if m, ok := macros[name]; ok && !hasValue && depth < 16 && converting(m, depth+1) {
				return true
			}
		}
		return false
	}
	for _, l := range lines {
		if converting(l.attrs, 0) {
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

// checkAttr asks git which of files it may convert (`git check-attr`,
// with cached the index's attributes only) and adds them to out.
func (r *Repo) checkAttr(ctx context.Context, files []string, cached bool, out map[string]bool) error {
	var in bytes.Buffer
	for _, f := range files {
		in.WriteString(f)
		in.WriteByte(0)
	}
	c := r.cmd()
	if os.Getenv("GIT_INDEX_FILE") != "" {
		// the index Index reads, whatever directory a relative name meant
		c.Env = append(c.Env, "GIT_INDEX_FILE="+r.IndexPath())
	}
	c.Stdin = &in
	args := []string{"check-attr", "-z", "--stdin"}
	if cached {
		args = append(args, "--cached")
	}
	res, err := c.Run(ctx, append(args, attrConverting...)...)
	if err != nil {
		return err
	}
	// path NUL attribute NUL value NUL, for each path and attribute
	f := bytes.Split(res, []byte{0})
	vals := map[string]string{}
	flush := func(p string) {
		if convertsBy(vals) {
			out[p] = true
		}
		clear(vals)
	}
	cur := ""
	for i := 0; i+2 < len(f); i += 3 {
		p := string(f[i])
		if p != cur && cur != "" {
			flush(cur)
		}
		cur = p
		vals[string(f[i+1])] = string(f[i+2])
	}
	if cur != "" {
		flush(cur)
	}
	return nil
}

// convertsBy says whether git may convert a path with these values of
// attrConverting (check-attr's "set", "unset", "unspecified" or a value),
// as convert.c decides, erring towards "may".
func convertsBy(v map[string]string) bool {
	specified := func(a string) bool { return v[a] != "" && v[a] != "unspecified" && v[a] != "unset" }
	text := v["text"]
	switch {
	case specified("ident"), specified("filter"), specified("working-tree-encoding"):
		return true
	case text == "unset":
		return false // -text, binary: no line-ending conversion
	case specified("text"), specified("eol"):
		return true
	case text == "unspecified" || text == "":
		return v["crlf"] != "" && v["crlf"] != "unspecified" && v["crlf"] != "unset"
	}
	return true
}
