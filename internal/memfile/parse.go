package memfile

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/internal/yamledit"
)

// Limits on what Parse accepts; past them it reports an error instead of
// spending unbounded memory.
const (
	// MaxFrontmatter is the largest frontmatter block parsed, in bytes.
	MaxFrontmatter = 4 << 20
	// MaxCitations is the most citations one memory may hold.
	MaxCitations = 20000
	// MaxLinks is the most links one memory may hold.
	MaxLinks = 20000
	// maxDepth bounds the nesting of YAML collections in the frontmatter.
	maxDepth = 64
	// maxAliasRefs bounds alias dereferences while reading fields.
	maxAliasRefs = 10000
)

// DefaultConfidence is the confidence of a memory that states none.
const DefaultConfidence = 0.5

// Form says how a citation is written in the file.
type Form uint8

// Citation forms.
const (
	// FormMapping is a structured citation: a YAML mapping with path, line…
	FormMapping Form = iota
	// FormString is a shorthand string: "path", "path:17", "path:17-28" or a URL.
	FormString
)

// Citation is one code reference of a memory.
type Citation struct {
	Index    int    // position in the citations list, from 0
	Path     string // as written (repo-relative); empty for URLs
	URL      string // set for http(s) citations, which are not verified
	Line     int    // 1-based start line; meaningful when HasLine
	LineEnd  int    // last line of a range; 0 when not a range
	Snippet  string // expected text; meaningful when HasSnippet
	Verified string // the verified timestamp as written
	Commit   string // commit at which the citation was last verified valid
	SrcLine  int    // line of the memory file where the citation is written

	node *yaml.Node // the citation's node (mapping or string scalar)

	// the small fields together: a store holds hundreds of thousands
	Form        Form       // how it is written
	HasLine     bool       // a line was given (it may still be < 1)
	HasSnippet  bool       // a non-empty snippet was given
	short       shortStyle // how a shorthand string writes its lines
	backslashes bool       // the path was written with backslashes (Path has slashes)
}

// shortStyle is how a shorthand citation writes its lines, kept when it is
// rewritten: "path:17-28", "path#L17-L28" or "path#L17-28".
type shortStyle byte

const (
	styleColon shortStyle = iota
	styleAnchor
	styleAnchorBareEnd
)

// Location renders the cited location as path, path:17 or path:17-28.
func (c Citation) Location() string {
	if c.URL != "" {
		return c.URL
	}
	switch {
	case !c.HasLine:
		return c.Path
	case c.LineEnd > 0: // "a.go:3-3" stays a range, so that it parses back the same
		return c.Path + ":" + strconv.Itoa(c.Line) + "-" + strconv.Itoa(c.LineEnd)
	default:
		return c.Path + ":" + strconv.Itoa(c.Line)
	}
}

// Written renders how the citation's place is written: its shorthand
// string in the style it was written in, or "mapping".
func (c Citation) Written() string {
	if c.Form == FormMapping {
		return "mapping"
	}
	return c.shorthand()
}

// shorthand renders c as a shorthand string in the style it was written
// in.
func (c Citation) shorthand() string {
	if c.short == styleColon || c.URL != "" || !c.HasLine {
		return c.Location()
	}
	switch {
	case c.LineEnd > 0 && c.short == styleAnchorBareEnd:
		return fmt.Sprintf("%s#L%d-%d", c.Path, c.Line, c.LineEnd)
	case c.LineEnd > 0:
		return fmt.Sprintf("%s#L%d-L%d", c.Path, c.Line, c.LineEnd)
	default:
		return fmt.Sprintf("%s#L%d", c.Path, c.Line)
	}
}

// Link is a typed relationship to another memory.
type Link struct {
	Type    string // lower case: related, supersedes, blocks, implements, extends
	Target  string
	SrcLine int
}

// LinkTypes are the link types of the schema.
var LinkTypes = []string{"related", "supersedes", "blocks", "implements", "extends"}

// Diagnostic is a warning about a memory file, with the line it concerns.
type Diagnostic struct {
	File string
	Line int
	Msg  string
}

func (d Diagnostic) String() string {
	if d.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Msg)
	}
	return fmt.Sprintf("%s: %s", d.File, d.Msg)
}

// ParseError is a memory file that cannot be used: the file and line of the
// problem and what it is.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	return Diagnostic(*e).String()
}

// File is a parsed memory file.
type File struct {
	Name string // path used in messages (repo-relative where known)
	Src  []byte // the file as read

	ID           string // the frontmatter id; empty when not given
	Subject      string
	Citations    []Citation
	Links        []Link
	Tags         []string
	Confidence   float64 // DefaultConfidence when not given or unusable
	LastVerified string
	Warnings     []Diagnostic

	HasFrontmatter bool
	HasConfidence  bool // a usable confidence was given
	Exempt         bool

	nl         string // line ending for inserted lines
	bomLen     int
	fmStart    int // first byte of the YAML text
	fmEnd      int // end of the YAML text (start of the closing fence line)
	bodyStart  int // first byte after the closing fence line
	fmLine     int // file line of the first YAML line
	lineStarts []int
	root       *yaml.Node // top-level mapping, nil when empty
	citKey     *yaml.Node
	citVal     *yaml.Node
	aliasRefs  int
	compacted  bool // the YAML tree was dropped (Compact)
}

// Body returns the markdown after the frontmatter (the whole file after a
// BOM when there is none).
func (f *File) Body() []byte { return f.Src[f.bodyStart:] }

// BodyLine is the file line number where the body starts.
func (f *File) BodyLine() int { return 1 + lineCount(f.Src[:f.bodyStart]) }

// Parse parses a memory file. name is used in diagnostics. A *ParseError is
// returned for a file that cannot be used. The File keeps src (Src) and
// its strings may alias it: src must not change afterwards.
func Parse(name string, src []byte) (*File, error) {
	f := &File{Name: name, Src: src, Confidence: DefaultConfidence, nl: "\n"}
	if !utf8.Valid(src) {
		return nil, f.errAt(firstInvalidLine(src), "not valid UTF-8")
	}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		f.bomLen = 3
	}
	f.bodyStart = f.bomLen
	open, fmStart, ok := findOpenFence(src, f.bomLen)
	if !ok {
		return f, nil
	}
	closeStart, bodyStart, ok := findCloseFence(src, fmStart)
	if !ok {
		return nil, f.errAt(lineCount(src[:open])+1, "frontmatter has no closing '---' line")
	}
	switch fence := src[open:fmStart]; {
	case bytes.HasSuffix(fence, []byte("\r\n")):
		f.nl = "\r\n"
	case bytes.HasSuffix(fence, []byte("\r")):
		f.nl = "\r" // classic Mac line endings: lines written keep them
	}
	f.HasFrontmatter = true
	f.fmStart, f.fmEnd, f.bodyStart = fmStart, closeStart, bodyStart
	f.fmLine = lineCount(src[:fmStart]) + 1
	if closeStart-fmStart > MaxFrontmatter {
		return nil, f.errAt(f.fmLine, fmt.Sprintf("frontmatter is larger than %d bytes", MaxFrontmatter))
	}
	text := src[fmStart:closeStart]
	f.lineStarts = lineStarts(text)
	doc, ok := fastYAML(text)
	if !ok {
		doc = &yaml.Node{}
		if err := yaml.Unmarshal(text, doc); err != nil {
			return nil, f.yamlError(err)
		}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return f, nil // empty frontmatter
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return f, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, f.errAt(f.line(root), "frontmatter is not a mapping of keys to values")
	}
	if d := depth(root, 0); d > maxDepth {
		return nil, f.errAt(f.line(root), fmt.Sprintf("frontmatter nests deeper than %d levels", maxDepth))
	}
	f.root = root
	if err := f.readTop(root); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *File) readTop(root *yaml.Node) error {
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			continue // complex keys are kept but not read
		}
		if seen[k.Value] {
			return f.errAt(f.line(k), fmt.Sprintf("duplicate key %q", k.Value))
		}
		seen[k.Value] = true
		v, err := f.deref(v)
		if err != nil {
			return err
		}
		switch k.Value {
		case "id":
			f.ID = strings.TrimSpace(scalarText(v))
		case "subject":
			f.Subject = scalarText(v)
		case "citations":
			f.citKey, f.citVal = k, root.Content[i+1]
			if err := f.readCitations(v); err != nil {
				return err
			}
		case "links":
			if err := f.readLinks(v); err != nil {
				return err
			}
		case "tags":
			f.readTags(v)
		case "confidence":
			f.readConfidence(v)
		case "last_verified":
			f.LastVerified = scalarText(v)
		case "exempt":
			switch {
			case v.Kind == yaml.ScalarNode && v.Tag == "!!bool":
				f.Exempt = strings.EqualFold(v.Value, "true")
			case isNull(v):
			default:
				f.warn(v, fmt.Sprintf("exempt should be true or false, got %q; treated as false", scalarText(v)))
			}
		default:
			// other keys are the memory store's own (title, created …):
			// kept and silent, unless they look like a typo of ours
			if near := nearKey(k.Value, topKeys); near != "" {
				f.warn(k, fmt.Sprintf("unknown key %q (did you mean %q?); ignored", k.Value, near))
			}
		}
	}
	return nil
}

// topKeys are the frontmatter keys git-memcite reads.
var topKeys = []string{"id", "subject", "citations", "links", "tags", "confidence", "last_verified", "exempt"}

// citationKeys are the keys of a citation mapping git-memcite reads or
// keeps on purpose (note: a comment of the author's). Keys starting with
// "x-" are extensions and kept silently too.
var citationKeys = []string{"path", "url", "line", "line_end", "end_line", "snippet", "verified", "commit", "note"}

// nearKey returns the key of known that k most likely misspells: one edit
// away (two for keys of six letters or more), counting a swap of two
// neighbouring letters as one edit, or the same but for a plural "s".
func nearKey(k string, known []string) string {
	if k == "" || strings.HasPrefix(k, "x-") {
		return ""
	}
	best, bestD := "", 3
	for _, w := range known {
		if w == k {
			return ""
		}
		limit := 1
		if len(w) >= 6 {
			limit = 2
		}
		if d := editDistance(strings.ToLower(k), w); d <= limit && d < bestD {
			best, bestD = w, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of neighbouring bytes.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func (f *File) readCitations(v *yaml.Node) error {
	switch {
	case isNull(v):
		return nil
	case v.Kind == yaml.ScalarNode:
		c, err := f.readCitation(0, v)
		if err != nil {
			return err
		}
		f.Citations = []Citation{c}
		return nil
	case v.Kind == yaml.MappingNode:
		return f.errAt(f.line(v), "citations must be a list (write '- path: …' for each citation)")
	case v.Kind != yaml.SequenceNode:
		return f.errAt(f.line(v), "citations must be a list")
	}
	if len(v.Content) > MaxCitations {
		return f.errAt(f.line(v), fmt.Sprintf("%d citations; at most %d are read per memory", len(v.Content), MaxCitations))
	}
	f.Citations = make([]Citation, 0, len(v.Content))
	for i, item := range v.Content {
		c, err := f.readCitation(i, item)
		if err != nil {
			return err
		}
		f.Citations = append(f.Citations, c)
	}
	return nil
}

// readCitation reads citation i. A path written with backslashes
// (src\a.go, as Windows writes paths) is read with slashes, with a
// warning: citation paths are slash-separated on every platform.
func (f *File) readCitation(i int, n *yaml.Node) (Citation, error) {
	c, err := f.readCitationNode(i, n)
	if err != nil {
		return c, err
	}
	if p, ok := slashPath(c.Path); ok {
		f.Warnings = append(f.Warnings, Diagnostic{File: f.Name, Line: c.SrcLine, Msg: fmt.Sprintf(
			"citation %d: path %s is written with backslashes; read as %s (citation paths are slash-separated)", i+1, c.Path, p)})
		c.Path, c.backslashes = p, true
	}
	return c, nil
}

// slashPath returns p with every backslash turned into a slash, and
// whether there was one. A path that slashes would turn into a URL
// (http:\\host) is left as written: it would no longer read back as a
// path.
func slashPath(p string) (string, bool) {
	if !strings.Contains(p, `\`) {
		return p, false
	}
	s := strings.ReplaceAll(p, `\`, "/")
	if isURL(s) {
		return p, false
	}
	return s, true
}

func (f *File) readCitationNode(i int, n *yaml.Node) (Citation, error) {
	c := Citation{Index: i, SrcLine: f.line(n), node: n}
	n, err := f.deref(n)
	if err != nil {
		return c, err
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if isNull(n) {
			return c, f.errAt(c.SrcLine, fmt.Sprintf("citation %d is empty", i+1))
		}
		c.Form = FormString
		if err := parseShorthand(strings.TrimSpace(n.Value), &c); err != nil {
			return c, f.errAt(c.SrcLine, fmt.Sprintf("citation %d: %v", i+1, err))
		}
		return c, nil
	case yaml.MappingNode:
	default:
		return c, f.errAt(c.SrcLine, fmt.Sprintf("citation %d must be a mapping with a path, or a string", i+1))
	}
	c.Form = FormMapping
	hasPath := false
	seen := map[string]bool{}
	pairs, err := f.mergedPairs(n, 0)
	if err != nil {
		return c, err
	}
	for j := 0; j+1 < len(pairs); j += 2 {
		k, v := pairs[j], pairs[j+1]
		if seen[k.Value] {
			f.warn(k, fmt.Sprintf("citation %d: the key %q appears more than once; the last one is used", i+1, k.Value))
		}
		seen[k.Value] = true
		v, err := f.deref(v)
		if err != nil {
			return c, err
		}
		if err := f.readCitationField(i, k, v, &c, &hasPath); err != nil {
			return c, err
		}
	}
	if !hasPath {
		return c, f.errAt(c.SrcLine, fmt.Sprintf("citation %d has no path", i+1))
	}
	if c.LineEnd != 0 && !c.HasLine {
		return c, f.errAt(c.SrcLine, fmt.Sprintf("citation %d has line_end but no line", i+1))
	}
	return c, nil
}

// readCitationField reads the value v of a citation mapping's key k into
// c; a path (or url) sets hasPath. Unknown keys are warned about.
func (f *File) readCitationField(i int, k, v *yaml.Node, c *Citation, hasPath *bool) error {
	switch k.Value {
	case "path":
		if v.Kind != yaml.ScalarNode || isNull(v) {
			return f.errAt(f.line(v), fmt.Sprintf("citation %d: path must be a string", i+1))
		}
		*hasPath = true
		c.Path = v.Value
		if isURL(c.Path) {
			c.URL, c.Path = c.Path, ""
		}
	case "url":
		if v.Kind == yaml.ScalarNode && !isNull(v) {
			*hasPath = true
			c.URL = v.Value
		}
	case "line":
		if err := f.readLine(v, c, i); err != nil {
			return err
		}
	case "line_end", "end_line":
		if isNull(v) {
			return nil
		}
		end, err := lineNumber(v)
		if err != nil {
			return f.errAt(f.line(v), fmt.Sprintf("citation %d: line_end: %v", i+1, err))
		}
		c.LineEnd = end
	case "snippet":
		if v.Kind != yaml.ScalarNode {
			return f.errAt(f.line(v), fmt.Sprintf("citation %d: snippet must be a string", i+1))
		}
		if !isNull(v) && v.Value != "" {
			c.Snippet, c.HasSnippet = v.Value, true
		}
	case "verified":
		c.Verified = scalarText(v)
	case "commit":
		s := strings.TrimSpace(scalarText(v))
		if s != "" && !IsObjectName(s) {
			f.warn(v, fmt.Sprintf("citation %d: commit %q is not a 40- or 64-hex commit name; ignored", i+1, s))
			s = ""
		}
		c.Commit = strings.ToLower(s)
	case "note":
	default:
		if k.Kind != yaml.ScalarNode || strings.HasPrefix(k.Value, "x-") {
			return nil
		}
		msg := fmt.Sprintf("citation %d: unknown key %q; kept but not read (extensions start with \"x-\")", i+1, k.Value)
		if near := nearKey(k.Value, citationKeys); near != "" {
			msg = fmt.Sprintf("citation %d: unknown key %q (did you mean %q?); ignored", i+1, k.Value, near)
		}
		f.warn(k, msg)
	}
	return nil
}

func (f *File) readLine(v *yaml.Node, c *Citation, i int) error {
	if isNull(v) {
		return nil
	}
	if v.Kind == yaml.ScalarNode && v.Tag == "!!str" {
		if m := rangeRe().FindStringSubmatch(strings.TrimSpace(v.Value)); m != nil {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			c.Line, c.HasLine, c.LineEnd = a, true, b
			return nil
		}
	}
	n, err := lineNumber(v)
	if err != nil {
		return f.errAt(f.line(v), fmt.Sprintf("citation %d: line: %v", i+1, err))
	}
	c.Line, c.HasLine = n, true
	return nil
}

var rangeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{1,9})\s*-\s*(\d{1,9})$`) })

// lineNumber reads an integer line number from an int, an integral float
// or a numeric string.
func lineNumber(v *yaml.Node) (int, error) {
	if v.Kind != yaml.ScalarNode {
		return 0, errors.New("must be a whole number")
	}
	s := strings.TrimSpace(v.Value)
	switch v.Tag {
	case "!!int", "!!str":
		n, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 32)
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s is too large (at most %d)", s, math.MaxInt32)
		}
		if err != nil {
			if v.Tag == "!!str" {
				if _, ferr := strconv.ParseFloat(s, 64); ferr == nil {
					return 0, fmt.Errorf("%s is not a whole number", s)
				}
			}
			return 0, fmt.Errorf("%q is not a whole number", s)
		}
		return int(n), nil
	case "!!float":
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || x != math.Trunc(x) || math.Abs(x) > math.MaxInt32 {
			return 0, fmt.Errorf("%s is not a whole number", s)
		}
		return int(x), nil
	}
	return 0, fmt.Errorf("%q is not a whole number", s)
}

// parseShorthand reads "path", "path:17", "path:17-28", "path#L17-L28" or a URL.
func parseShorthand(s string, c *Citation) error {
	if s == "" {
		return errors.New("empty citation")
	}
	if isURL(s) {
		c.URL = s
		return nil
	}
	if m := shortRe().FindStringSubmatch(s); m != nil {
		c.Path = m[1]
		c.Line, _ = strconv.Atoi(m[2])
		c.HasLine = true
		if m[3] != "" {
			c.LineEnd, _ = strconv.Atoi(m[3])
		}
		return nil
	}
	if m := anchorRe().FindStringSubmatch(s); m != nil {
		c.Path = m[1]
		c.Line, _ = strconv.Atoi(m[2])
		c.HasLine = true
		c.short = styleAnchor
		if m[3] != "" {
			c.LineEnd, _ = strconv.Atoi(m[3])
			if !strings.Contains(s[len(m[1]):], "-L") {
				c.short = styleAnchorBareEnd
			}
		}
		return nil
	}
	c.Path = s
	return nil
}

var (
	shortRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+?):(\d{1,9})(?:-(\d{1,9}))?$`) })
	anchorRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+?)#L(\d{1,9})(?:-L?(\d{1,9}))?$`) })
)

// ParseShorthand parses a citation string ("path", "path:17",
// "path:17-28", "path#L17-L28" or a URL) as it may appear in frontmatter or
// on the command line. Backslashes in the path become slashes.
func ParseShorthand(s string) (Citation, error) {
	var c Citation
	c.Form = FormString
	err := parseShorthand(strings.TrimSpace(s), &c)
	c.Path, _ = slashPath(c.Path)
	return c, err
}

func isURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// IsObjectName reports whether s is a full SHA-1 or SHA-256 object name.
func IsObjectName(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !(b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F') {
			return false
		}
	}
	return true
}

func (f *File) readLinks(v *yaml.Node) error {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		f.warn(v, "links should be a list; ignored")
		return nil
	}
	if len(v.Content) > MaxLinks {
		return f.errAt(f.line(v), fmt.Sprintf("%d links; at most %d are read per memory", len(v.Content), MaxLinks))
	}
	for _, item := range v.Content {
		item, err := f.deref(item)
		if err != nil {
			return err
		}
		if item.Kind != yaml.MappingNode {
			f.warn(item, "a link should be a mapping such as '- related: other-memory'; skipped")
			continue
		}
		var typ, target, single string
		pairs := 0
		for j := 0; j+1 < len(item.Content); j += 2 {
			k, val := item.Content[j].Value, scalarText(item.Content[j+1])
			pairs++
			switch strings.ToLower(k) {
			case "link_type", "type":
				typ = val
			case "target_id", "target":
				target = val
			default:
				single, target = k, val
			}
		}
		if typ == "" {
			if pairs != 1 {
				f.warn(item, "a link should have one key (its type) or link_type and target_id; skipped")
				continue
			}
			typ = single
		}
		typ = strings.ToLower(strings.TrimSpace(typ))
		target = strings.TrimSpace(target)
		if !isLinkType(typ) {
			f.warn(item, fmt.Sprintf("unknown link type %q; skipped", typ))
			continue
		}
		if target == "" {
			f.warn(item, fmt.Sprintf("%s link without a target; skipped", typ))
			continue
		}
		f.Links = append(f.Links, Link{Type: typ, Target: target, SrcLine: f.line(item)})
	}
	return nil
}

func isLinkType(t string) bool {
	for _, l := range LinkTypes {
		if l == t {
			return true
		}
	}
	return false
}

func (f *File) readTags(v *yaml.Node) {
	switch {
	case isNull(v):
	case v.Kind == yaml.SequenceNode:
		for _, t := range v.Content {
			if t.Kind == yaml.ScalarNode && !isNull(t) {
				f.Tags = append(f.Tags, t.Value)
			}
		}
	default:
		f.warn(v, "tags should be a list; ignored")
	}
}

func (f *File) readConfidence(v *yaml.Node) {
	if isNull(v) {
		return
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(v.Value), 64)
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!float" && v.Tag != "!!int") || err != nil || math.IsNaN(x) {
		f.warn(v, fmt.Sprintf("confidence %q is not a number from 0 to 1; using %.1f", scalarText(v), DefaultConfidence))
		return
	}
	if x < 0 || x > 1 {
		f.warn(v, fmt.Sprintf("confidence %v is outside 0 to 1; using %.1f", x, DefaultConfidence))
		return
	}
	f.Confidence, f.HasConfidence = x, true
}

// deref follows an alias, within a budget that stops alias bombs.
// isMerge reports a YAML merge key ("<<").
func isMerge(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && (k.Tag == "!!merge" || (k.Value == "<<" && k.Style == 0))
}

// mergedPairs returns the key and value nodes of mapping n, with YAML
// merge keys ("<<: *base", "<<: [*a, *b]") replaced by the pairs of the
// mappings they name that n does not set itself.
func (f *File) mergedPairs(n *yaml.Node, depth int) ([]*yaml.Node, error) {
	hasMerge := false
	for j := 0; j+1 < len(n.Content); j += 2 {
		if isMerge(n.Content[j]) {
			hasMerge = true
		}
	}
	if !hasMerge {
		return n.Content, nil
	}
	if depth > 8 {
		return nil, f.errAt(f.line(n), "YAML merge keys nest too deep")
	}
	own := map[string]bool{}
	var out []*yaml.Node
	for j := 0; j+1 < len(n.Content); j += 2 {
		if k := n.Content[j]; !isMerge(k) {
			own[k.Value] = true
			out = append(out, k, n.Content[j+1])
		}
	}
	for j := 0; j+1 < len(n.Content); j += 2 {
		if !isMerge(n.Content[j]) {
			continue
		}
		v, err := f.deref(n.Content[j+1])
		if err != nil {
			return nil, err
		}
		sources := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			sources = v.Content
		}
		for _, src := range sources {
			src, err := f.deref(src)
			if err != nil {
				return nil, err
			}
			if src.Kind != yaml.MappingNode {
				return nil, f.errAt(f.line(src), "a YAML merge key (<<) must name a mapping")
			}
			pairs, err := f.mergedPairs(src, depth+1)
			if err != nil {
				return nil, err
			}
			for m := 0; m+1 < len(pairs); m += 2 {
				if k := pairs[m]; !own[k.Value] {
					own[k.Value] = true
					out = append(out, k, pairs[m+1])
				}
			}
		}
	}
	return out, nil
}

func (f *File) deref(n *yaml.Node) (*yaml.Node, error) {
	for hops := 0; n.Kind == yaml.AliasNode; hops++ {
		f.aliasRefs++
		if f.aliasRefs > maxAliasRefs || hops > 16 || n.Alias == nil {
			return nil, f.errAt(f.line(n), "too many YAML alias references")
		}
		n = n.Alias
	}
	return n, nil
}

func depth(n *yaml.Node, d int) int {
	if d > maxDepth {
		return d
	}
	m := d
	for _, c := range n.Content {
		if x := depth(c, d+1); x > m {
			m = x
		}
	}
	return m
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func scalarText(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode || isNull(n) {
		return ""
	}
	return n.Value
}

func (f *File) warn(n *yaml.Node, msg string) {
	f.Warnings = append(f.Warnings, Diagnostic{File: f.Name, Line: f.line(n), Msg: msg})
}

func (f *File) errAt(line int, msg string) error {
	return &ParseError{File: f.Name, Line: line, Msg: msg}
}

// line is the file line of a node.
func (f *File) line(n *yaml.Node) int {
	if n == nil || n.Line == 0 {
		return f.fmLine
	}
	return f.fmLine + n.Line - 1
}

var yamlLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

func (f *File) yamlError(err error) error {
	msg := err.Error()
	if te := (*yaml.TypeError)(nil); errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if m := yamlLineRe().FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return f.errAt(f.fmLine+n-1, "invalid YAML: "+m[2])
	}
	return f.errAt(f.fmLine, "invalid YAML: "+strings.TrimPrefix(msg, "yaml: "))
}

// findOpenFence looks for the opening "---" after optional blank lines. It
// returns the offset of the fence line and of the line after it.
func findOpenFence(src []byte, pos int) (fence, next int, ok bool) {
	for pos < len(src) {
		end, nextLine := yamledit.LineEnd(src, pos)
		line := src[pos:end]
		if len(bytes.TrimSpace(line)) == 0 {
			if nextLine == end { // last line, no newline
				return 0, 0, false
			}
			pos = nextLine
			continue
		}
		if string(bytes.TrimRight(line, " \t")) == "---" && nextLine > end {
			return pos, nextLine, true
		}
		return 0, 0, false
	}
	return 0, 0, false
}

// findCloseFence finds the closing "---" (or "...") line at or after pos.
func findCloseFence(src []byte, pos int) (start, after int, ok bool) {
	for pos < len(src) {
		end, next := yamledit.LineEnd(src, pos)
		s := string(bytes.TrimRight(src[pos:end], " \t"))
		if s == "---" || s == "..." {
			return pos, next, true
		}
		if next == end {
			break
		}
		pos = next
	}
	return 0, 0, false
}

// lineStarts lists the byte offsets where each line of text starts, with the
// line breaks YAML recognises (LF, CRLF, CR, NEL, LS, PS).
func lineStarts(text []byte) []int {
	starts := []int{0}
	for i := 0; i < len(text); {
		switch {
		case text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n':
			i += 2
		case text[i] == '\n' || text[i] == '\r':
			i++
		case text[i] == 0xc2 && i+1 < len(text) && text[i+1] == 0x85:
			i += 2
		case text[i] == 0xe2 && i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xa8 || text[i+2] == 0xa9):
			i += 3
		default:
			i++
			continue
		}
		starts = append(starts, i)
	}
	return starts
}

// lineCount counts line breaks (LF, CRLF or CR) in b.
func lineCount(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			n++
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
			n++
		}
	}
	return n
}

func firstInvalidLine(src []byte) int {
	line := 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		i += size
	}
	return line
}
