// Package prose finds the references a memory's prose makes — file
// paths, line references, symbols and links to other memories — and
// judges them where their words were written (docs/prose-references.md).
//
// Extract is the one reference extractor: pure, it reads a memory file's
// bytes and nothing else. Whether a reference resolves (a bare file name
// that names exactly one tracked file, a symbol defined in the code, a
// memory that exists) is decided by the Checker, at the commit that wrote
// the reference's sentence.
package prose

import (
	"bytes"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Kind is what a reference points at.
type Kind uint8

// Kinds of references.
const (
	KindPath   Kind = iota // a file of the repository, maybe with lines
	KindSymbol             // a symbol of the code: a function, type, method
	KindMemory             // another memory
)

func (k Kind) String() string { return [...]string{"path", "symbol", "memory"}[k] }

// Forms of references, as written.
const (
	FormBackticked  = "backticked"    // `src/a.go`
	FormBare        = "bare"          // src/a.go or a.go in plain text
	FormPathLine    = "path-line"     // src/a.go:17, src/a.go:17-28
	FormAnchor      = "anchor"        // src/a.go#L17-L28
	FormProseLine   = "prose-line"    // `a.go` line 17, `a.go` L17, (Lines 17-28), の Line 22
	FormLink        = "markdown-link" // [x](src/a.go:17), [x](other.md)
	FormWiki        = "wiki-link"     // [[other]]
	FormFrontmatter = "frontmatter"   // related: [other], references: [a.md]
	FormName        = "memory-name"   // `other-memory` or other-memory: a memory's name
	FormSymbol      = "symbol"        // `Type.Method()`, `do_thing()`, `GetFact`
)

// Ref is one reference found in a memory file.
type Ref struct {
	Kind Kind
	Form string
	// Target is the path, symbol or memory as written (without lines,
	// without the call's parentheses).
	Target string
	// Line and End are the cited lines (0: none; End 0: one line).
	Line, End int
	// MemLine is the line of the memory file the reference is on (1-based).
	MemLine int
	// Start and Stop are the byte offsets of Target in the memory file:
	// a fix rewrites exactly these bytes.
	Start, Stop int
	// Key is the frontmatter key of a FormFrontmatter reference.
	Key string
	// Bare: a file name written without a folder and not in backticks;
	// it counts only when it names exactly one tracked file.
	Bare bool
}

// Options tune Extract.
type Options struct {
	Fences bool // also read fenced code blocks (skipped by default)
}

// frontKeys are the frontmatter keys whose values name other memories.
var frontKeys = map[string]bool{
	"related": true, "references": true, "supersedes": true, "superseded_by": true,
	"dependencies": true, "depends_on": true, "see_also": true, "related_memories": true,
	"parent": true, "children": true,
}

var (
	// a file name: with an extension, or one of the usual names without.
	fileName = `(?:[\w.-]+/)*(?:[\w-][\w.-]*\.[A-Za-z][\w]*|Makefile|Dockerfile|Containerfile|Justfile|Rakefile|Gemfile|Jenkinsfile|Procfile|Vagrantfile)`
	// a path followed by :17, :17-28, #L17, #L17-L28
	pathLineRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[^\w./:#-])(` + fileName + `)(?::(\d{1,7})(?:[-–](\d{1,7}))?|#L(\d{1,7})(?:-L?(\d{1,7}))?)`)
	})
	linkRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`!?\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	})
	wikiRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[\[([^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]`) })
	urlRe     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s)>\]]+`) })
	fenceRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^ {0,3}(```|~~~)") })
	ignoreRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<!--\s*memcite:\s*ignore\s*-->`) })
	lineAfter = sync.OnceValue(func() *regexp.Regexp {
		// "line 17", "lines 17-28", "L17", "L17-L28", "Line 22", "ligne 22",
		// "Zeile 22", "línea 22", "linha 22", "riga 22", "строка 22",
		// "22行", "第22行"
		return regexp.MustCompile(`(?i)^[\s,:;(\x60*の的第]{0,6}(?:(?:lines?|ligne?s?|zeilen?|l[íi]neas?|linhas?|riga|righe|строк[аи]?)\s*(\d{1,7})(?:\s*(?:[-–~]|to|bis|à|a)\s*(\d{1,7}))?|L(\d{1,7})(?:[-–]L?(\d{1,7}))?\b|(\d{1,7})(?:\s*[-–~]\s*(\d{1,7}))?\s*行)`)
	})
)

// Extract lists the references in the memory file src (its frontmatter
// lists and its body), in order. A memory that opts out (frontmatter
// `memcite: ignore`, or `<!-- memcite: ignore -->` in the body) has none.
func Extract(src []byte, o Options) []Ref {
	front, frontStart, body, bodyStart, bodyLine := split(src)
	if ignoreRe().Match(body) {
		return nil
	}
	var out []Ref
	if len(front) > 0 {
		refs, ignore := frontRefs(front)
		if ignore {
			return nil
		}
		for i := range refs {
			if refs[i].Start >= 0 {
				refs[i].Start += frontStart
				refs[i].Stop += frontStart
			}
		}
		out = append(out, refs...)
	}
	out = append(out, bodyRefs(body, bodyStart, bodyLine, o)...)
	return out
}

// split finds the frontmatter (between the opening and closing ---
// lines; without the --- lines) and the body.
func split(src []byte) (front []byte, frontStart int, body []byte, bodyStart, bodyLine int) {
	s := src
	off := 0
	if bytes.HasPrefix(s, []byte("\xef\xbb\xbf")) {
		off = 3
	}
	if !bytes.HasPrefix(s[off:], []byte("---")) {
		return nil, 0, src, 0, 1
	}
	nl := bytes.IndexByte(s[off:], '\n')
	if nl < 0 || strings.TrimSpace(string(s[off:off+nl])) != "---" {
		return nil, 0, src, 0, 1
	}
	start := off + nl + 1
	pos := start
	line := 2
	for pos < len(s) {
		end := bytes.IndexByte(s[pos:], '\n')
		var l []byte
		next := len(s)
		if end >= 0 {
			l, next = s[pos:pos+end], pos+end+1
		} else {
			l = s[pos:]
		}
		if t := strings.TrimRight(string(l), "\r \t"); t == "---" || t == "..." {
			return s[start:pos], start, s[next:], next, line + 1
		}
		pos = next
		line++
	}
	return nil, 0, src, 0, 1 // no closing ---: all body
}

// frontRefs lists the memory references of the frontmatter's link lists,
// and says whether the memory opts out (memcite: ignore).
// hasFrontKey reports whether a line of the frontmatter starts with a
// top-level key frontRefs reads (memcite, or one of frontKeys), in any
// case and quoting.
func hasFrontKey(front []byte) bool {
	for _, line := range bytes.Split(front, []byte("\n")) {
		if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		k, _, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		key := strings.ToLower(strings.Trim(strings.TrimSpace(string(k)), `"'`))
		if key == "memcite" || frontKeys[key] {
			return true
		}
	}
	return false
}

func frontRefs(front []byte) (refs []Ref, ignore bool) {
	if !hasFrontKey(front) {
		return nil, false // the YAML is parsed only when a key it reads is there
	}
	var root yaml.Node
	if err := yaml.Unmarshal(front, &root); err != nil || len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, false
	}
	m := root.Content[0]
	lineOff := lineOffsets(front)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		key := strings.ToLower(k.Value)
		if key == "memcite" && v.Kind == yaml.ScalarNode && strings.EqualFold(strings.TrimSpace(v.Value), "ignore") {
			return nil, true
		}
		if !frontKeys[key] {
			continue
		}
		var items []*yaml.Node
		switch v.Kind {
		case yaml.ScalarNode:
			items = []*yaml.Node{v}
		case yaml.SequenceNode:
			items = v.Content
		}
		for _, it := range items {
			if it.Kind != yaml.ScalarNode || strings.TrimSpace(it.Value) == "" || it.Tag == "!!null" {
				continue
			}
			// the offset of a plain or quoted scalar in the file: the
			// frontmatter starts after the first line (---)
			at := -1
			if it.Line-1 < len(lineOff) {
				at = lineOff[it.Line-1] + it.Column - 1
				if it.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
					at++
				}
				if at < 0 || at+len(it.Value) > len(front) || string(front[at:at+len(it.Value)]) != it.Value {
					at = -1
				}
			}
			// a list written as one scalar ("a.md, b.md") names each; a
			// section of a memory ("a.md#setup") names the memory
			for _, fi := range frontItems(it.Value) {
				r := Ref{Kind: KindMemory, Form: FormFrontmatter, Target: fi.name, MemLine: it.Line + 1, Key: key, Start: -1, Stop: -1}
				if at >= 0 {
					r.Start, r.Stop = at+fi.off, at+fi.off+len(fi.name) // relative to the frontmatter; shifted below
				}
				refs = append(refs, r)
			}
		}
	}
	return refs, false
}

// frontItem is a memory a frontmatter value names, at off in it.
type frontItem struct {
	off  int
	name string
}

// frontItems splits a frontmatter value into the memories it names, by
// their offsets in it: the parts between commas, each without spaces
// around it and without a "#section" after a name.
func frontItems(v string) []frontItem {
	var out []frontItem
	for off := 0; off <= len(v); {
		end := strings.IndexByte(v[off:], ',')
		if end < 0 {
			end = len(v) - off
		}
		part := v[off : off+end]
		lead := len(part) - len(strings.TrimLeft(part, " \t"))
		part = strings.TrimSpace(part)
		if i := strings.IndexByte(part, '#'); i >= 0 {
			part = strings.TrimSpace(part[:i])
		}
		if part != "" {
			out = append(out, frontItem{off + lead, part})
		}
		off += end + 1
	}
	return out
}

func lineOffsets(b []byte) []int {
	out := []int{0}
	for i, c := range b {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// bodyRefs scans the body line by line.
func bodyRefs(body []byte, bodyStart, firstLine int, o Options) []Ref {
	var out []Ref
	inFence := false
	pos := 0
	for k := 0; pos <= len(body); k++ {
		end := bytes.IndexByte(body[pos:], '\n')
		next := len(body) + 1
		l := body[pos:]
		if end >= 0 {
			l, next = body[pos:pos+end], pos+end+1
		}
		l = bytes.TrimRight(l, "\r")
		if fenceRe().Match(l) {
			inFence = !inFence
		} else if (!inFence || o.Fences) && utf8.Valid(l) {
			out = append(out, lineRefs(string(l), bodyStart+pos, firstLine+k)...)
		}
		pos = next
	}
	return out
}

// scan is one line being read: the bytes already part of a reference.
type scan struct {
	l     string
	off   int // offset of the line in the file
	line  int
	taken []bool
	out   []Ref
}

func (s *scan) take(a, b int) bool {
	for i := a; i < b; i++ {
		if s.taken[i] {
			return false
		}
	}
	for i := a; i < b; i++ {
		s.taken[i] = true
	}
	return true
}

func (s *scan) add(r Ref, a, b int) {
	r.MemLine, r.Start, r.Stop = s.line, s.off+a, s.off+b
	s.out = append(s.out, r)
}

// lineRefs finds the references of one body line, in this order: URLs
// (taken, never references), markdown and wiki links, path:line forms,
// backticked spans (paths, memory names, symbols), bare paths, then the
// prose line forms that follow a path.
// hasLineSuffix reports whether l has a ":" or "#L" followed by a digit,
// which every path-with-line form needs.
func hasLineSuffix(l string) bool {
	for i := 0; i+1 < len(l); i++ {
		switch {
		case l[i] == ':' && l[i+1] >= '0' && l[i+1] <= '9':
			return true
		case l[i] == '#' && l[i+1] == 'L' && i+2 < len(l) && l[i+2] >= '0' && l[i+2] <= '9':
			return true
		}
	}
	return false
}

func lineRefs(l string, off, line int) []Ref {
	if !strings.ContainsAny(l, "`./[:#") {
		return nil
	}
	s := &scan{l: l, off: off, line: line, taken: make([]bool, len(l))}
	// each regexp runs only on a line that holds the bytes every match
	// of it has: most lines have none
	var urls, links, wikis, codes [][]int
	if strings.Contains(l, "://") {
		urls = urlRe().FindAllStringIndex(l, -1)
	}
	if strings.Contains(l, "](") {
		links = linkRe().FindAllStringSubmatchIndex(l, -1)
	}
	if strings.Contains(l, "[[") {
		wikis = wikiRe().FindAllStringSubmatchIndex(l, -1)
	}
	if strings.IndexByte(l, '`') >= 0 {
		codes = codeSpans(l)
	}
	for _, m := range urls {
		s.take(m[0], m[1])
	}
	// undo URL takes inside markdown link targets? no: a URL target is external.
	for _, m := range links {
		a, b := m[4], m[5]
		if s.taken[a] { // a URL
			continue
		}
		s.link(l[a:b], a)
		s.take(m[0], m[1])
	}
	for _, m := range wikis {
		if !s.take(m[0], m[1]) {
			continue
		}
		t := strings.TrimSpace(l[m[2]:m[3]])
		a := m[2] + strings.Index(l[m[2]:m[3]], t)
		s.add(Ref{Kind: KindMemory, Form: FormWiki, Target: t}, a, a+len(t))
	}
	var pathLines [][]int
	if hasLineSuffix(l) { // the regexp is costly: most lines have no ":17" or "#L17"
		pathLines = pathLineRe().FindAllStringSubmatchIndex(l, -1)
	}
	for _, m := range pathLines {
		if !s.take(m[2], m[1]) {
			continue
		}
		r := Ref{Kind: KindPath, Form: FormPathLine, Target: l[m[2]:m[3]]}
		if m[8] >= 0 {
			r.Form = FormAnchor
			r.Line = atoi(l[m[8]:m[9]])
			if m[10] >= 0 {
				r.End = atoi(l[m[10]:m[11]])
			}
		} else {
			r.Line = atoi(l[m[4]:m[5]])
			if m[6] >= 0 {
				r.End = atoi(l[m[6]:m[7]])
			}
		}
		if r.End <= r.Line { // "10-1" is line 10, not a backward range
			r.End = 0
		}
		s.add(r, m[2], m[3])
	}
	for _, m := range codes {
		if s.taken[m[2]] {
			continue
		}
		s.code(l[m[2]:m[3]], m[2], m[1])
	}
	for _, m := range bareMatches(l) {
		a, b := m[0], m[1]
		t := strings.TrimRight(l[a:b], ".-")
		b = a + len(t)
		if !isPathLike(t) || !s.take(a, b) {
			continue
		}
		s.add(Ref{Kind: KindPath, Form: FormBare, Target: t, Bare: !strings.Contains(t, "/")}, a, b)
	}
	s.proseLines()
	sort.SliceStable(s.out, func(a, b int) bool { return s.out[a].Start < s.out[b].Start })
	return s.out
}

// link reads a markdown link's target: a URL is external; a .md file is
// a memory (or a document: the checker decides); anything else a path,
// with :17 or #L17-L28 read as lines.
func (s *scan) link(t string, a int) {
	if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "mailto:") || strings.Contains(t, "://") {
		return
	}
	r := Ref{Kind: KindPath, Form: FormLink}
	p := t
	if i := strings.Index(p, "#"); i >= 0 {
		frag := p[i+1:]
		p = p[:i]
		if ln, end, ok := anchorLines(frag); ok {
			r.Line, r.End = ln, end
		}
	} else if i := strings.LastIndexByte(p, ':'); i > 0 {
		if ln, end, ok := colonLines(p[i+1:]); ok {
			p, r.Line, r.End = p[:i], ln, end
		}
	}
	if p == "" {
		return
	}
	if strings.HasSuffix(strings.ToLower(p), ".md") && r.Line == 0 {
		r.Kind = KindMemory
	}
	r.Target = p
	s.add(r, a, a+len(p))
}

// code reads a backticked span: a path (maybe with prose lines after it),
// a memory name or a symbol. The checker sorts paths from memory names.
func (s *scan) code(t string, a, closeAt int) {
	tt := strings.TrimSpace(t)
	a += strings.Index(t, tt)
	switch {
	case tt == "":
	case isPathLike(tt) && !looksLikeCall(tt) || maybeRoutePath(tt) && routePathRe().MatchString(tt):
		if s.take(a, a+len(tt)) {
			k := KindPath
			if strings.HasSuffix(strings.ToLower(tt), ".md") && !strings.Contains(tt, "/") {
				k = KindMemory // a memory by file name; the checker falls back to a path
			}
			s.add(Ref{Kind: k, Form: FormBackticked, Target: tt}, a, a+len(tt))
		}
	default:
		if sym, ok := Symbol(tt); ok && s.take(a, a+len(tt)) {
			s.add(Ref{Kind: KindSymbol, Form: FormSymbol, Target: sym}, a, a+len(sym))
		} else if isName(tt) && s.take(a, a+len(tt)) {
			s.add(Ref{Kind: KindMemory, Form: FormName, Target: tt}, a, a+len(tt))
		}
	}
	_ = closeAt
}

// proseLines attaches "line 17", "L17", "(Lines 17-28)" and localised
// forms to the path just before them on the line.
func (s *scan) proseLines() {
	for i := range s.out {
		r := &s.out[i]
		if r.Kind != KindPath || r.Line != 0 || r.Form == FormLink {
			continue
		}
		after := r.Stop - s.off
		for after < len(s.l) && s.l[after] == '`' {
			after++
		}
		rest := s.l[after:]
		m := lineAfter().FindStringSubmatchIndex(rest)
		if m == nil {
			continue
		}
		for g := 2; g+1 < len(m); g += 4 {
			if m[g] >= 0 {
				r.Line = atoi(rest[m[g]:m[g+1]])
				if m[g+2] >= 0 {
					r.End = atoi(rest[m[g+2]:m[g+3]])
				}
				break
			}
		}
		if r.End <= r.Line {
			r.End = 0
		}
		if r.Line > 0 {
			r.Form = FormProseLine
			r.Bare = false
		}
	}
}

// anchorLines reads L17, L17-L28, L17-28.
func anchorLines(frag string) (int, int, bool) {
	if !strings.HasPrefix(frag, "L") {
		return 0, 0, false
	}
	a, b, _ := strings.Cut(frag[1:], "-")
	la, err := strconv.Atoi(a)
	if err != nil || la <= 0 {
		return 0, 0, false
	}
	lb, _ := strconv.Atoi(strings.TrimPrefix(b, "L"))
	if lb <= la {
		lb = 0
	}
	return la, lb, true
}

// colonLines reads 17 and 17-28.
func colonLines(s string) (int, int, bool) {
	a, b, _ := strings.Cut(s, "-")
	la, err := strconv.Atoi(a)
	if err != nil || la <= 0 {
		return 0, 0, false
	}
	lb, _ := strconv.Atoi(b)
	if lb <= la {
		lb = 0
	}
	return la, lb, true
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// routePathRe matches a path with folders named as web frameworks' file
// routes name them: a group (shell), a parameter [id] or [...slug], a
// slot @sidebar (app/(shell)/[id]/page.tsx), read in backticks only.
var routePathRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[\w.-]+/)*(?:(?:\([\w.-]+\)|\[{1,2}(?:\.\.\.)?[\w-]+\]{1,2}|@[\w-]+)/(?:[\w.-]+/)*)+` + `[\w-][\w.-]*\.[A-Za-z]\w*$`)
})

// maybeRoutePath tells what routePathRe may match: a "/" and one of the
// bytes that open a group, a parameter or a slot.
func maybeRoutePath(t string) bool {
	return strings.IndexByte(t, '/') >= 0 && strings.ContainsAny(t, "([@")
}

// isIdentifier is ^[A-Za-z_$][\w$]*$: a name of code.
func isIdentifier(t string) bool {
	if t == "" || t[0] >= '0' && t[0] <= '9' {
		return false
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; !isWord(c) && c != '$' {
			return false
		}
	}
	return true
}

// codeExt are extensions that make a dotted name a file, not a symbol
// (`config.yaml` is a file, `graph.New` is not).
var codeExt = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`go py pyi ts tsx js jsx mjs cjs java kt kts cs fs fsx fsi c h cc cpp cxx hpp hh rs rb php swift r R sh bash zsh ps1 psm1 psd1
		md mdx txt rst adoc json jsonc yaml yml toml ini cfg conf xml html htm css scss sass less sql proto graphql gql
		lock mod sum csproj fsproj sln props targets gradle properties env example tmpl tpl j2 vue svelte lua pl pm ex exs erl hs ml mli scala clj dart
		ipynb csv tsv svg png jpg jpeg gif pdf dockerfile editorconfig gitignore gitattributes bat plist qml qrc cmake`) {
		codeExt[strings.ToLower(e)] = true
	}
}

// isPathLike: a file name with a known extension or with a folder.
func isPathLike(t string) bool {
	if !isFileName(t) || strings.Contains(t, "..") && !strings.HasPrefix(t, "../") {
		return false
	}
	if strings.Contains(t, "/") {
		return true
	}
	i := strings.LastIndexByte(t, '.')
	if i < 0 {
		return true // Makefile, Dockerfile, …
	}
	if codeExt[strings.ToLower(t[i+1:])] {
		return true
	}
	// a file name with a suffix after its extension: x.py.patch,
	// app.ts.snap, main.go.orig
	j := strings.LastIndexByte(t[:i], '.')
	return j > 0 && codeExt[strings.ToLower(t[j+1:i])] && !strings.ContainsAny(t[i+1:], "#:")
}

func looksLikeCall(t string) bool { return strings.Contains(t, "(") }

// isName: a memory name written in backticks (letters, digits, - and _,
// with at least one - or _).
func isName(t string) bool {
	if len(t) < 4 || len(t) > 120 || !strings.ContainsAny(t, "-_") {
		return false
	}
	for _, c := range t {
		if !(c == '-' || c == '_' || c == '/' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return !strings.HasPrefix(t, "-")
}

// Symbol reads a backticked span as a symbol and returns it without call
// parentheses and arguments ("Type.Method()" → "Type.Method"), or false
// when the span is not code-shaped: a symbol is a call (f(), f(x)), a
// dotted or scoped name (a.b, A::b, A#b), or one identifier that cannot
// be an English word: snake_case, CamelCase with an inner capital,
// camelCase, or with digits.
func Symbol(t string) (string, bool) {
	t = strings.TrimSpace(t)
	call := false
	if i := strings.IndexByte(t, '('); i > 0 {
		if !strings.HasSuffix(t, ")") {
			return "", false
		}
		t, call = t[:i], true
	}
	if m, ok := strings.CutSuffix(t, "!"); ok { // Rust macros
		if rustStdMacro[m] {
			return "", false // the language's (todo!(), vec!), not the code's
		}
		t = m
	}
	if t == "" || len(t) > 200 || strings.HasPrefix(t, "$") {
		// $name: a shell or PowerShell variable ($PSScriptRoot), the
		// language's rather than the code's
		return "", false
	}
	var parts []string
	rest := t
	for rest != "" {
		i := strings.IndexAny(rest, ".:#")
		if i < 0 {
			parts = append(parts, rest)
			break
		}
		parts = append(parts, rest[:i])
		rest = rest[i:]
		switch {
		case strings.HasPrefix(rest, "::"):
			rest = rest[2:]
		case strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "#"):
			rest = rest[1:]
		default:
			return "", false
		}
		if rest == "" {
			return "", false
		}
	}
	for _, p := range parts {
		if !isIdentifier(p) || placeholder(p) {
			return "", false
		}
	}
	last := parts[len(parts)-1]
	switch {
	case len(parts) > 1:
		if len(parts) == 2 && codeExt[strings.ToLower(last)] && !call {
			return "", false // a file name
		}
		if !call && !codeShaped(last) && !codeShaped(parts[0]) && strings.ToLower(parts[0]) == parts[0] && strings.ToLower(last) == last && len(parts) == 2 {
			// "e.g", "i.e", "etc.x": two lower-case words
			if len(parts[0]) < 3 || len(last) < 3 {
				return "", false
			}
		}
		return t, true
	case call:
		return t, len(t) >= 2
	default:
		return t, codeShaped(t) && len(t) >= 3
	}
}

// rustStdMacro are the macros of Rust's standard library: a sentence
// that names one (`todo!()`, `panic!`) names the language, which no
// commit of the code defines or removes.
var rustStdMacro = map[string]bool{}

func init() {
	for _, m := range strings.Fields(`assert assert_eq assert_ne debug_assert debug_assert_eq debug_assert_ne
		panic todo unimplemented unreachable dbg print println eprint eprintln format format_args write writeln
		vec matches concat stringify include include_str include_bytes env option_env cfg line column file module_path compile_error`) {
		rustStdMacro[m] = true
	}
}

// placeholder: a name with a word of three or more x's (GetXxxUseCase,
// xxx_handler, useXXXQuery) stands for a pattern of names, not for one.
func placeholder(t string) bool {
	isX := func(c byte) bool { return c == 'x' || c == 'X' }
	for i := 0; i < len(t); {
		if !isX(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && isX(t[j]) {
			j++
		}
		// a word starts at the start, after _ or a digit, or with a
		// capital after a small letter; it ends at the end, before _, a
		// digit or a capital
		starts := i == 0 || t[i-1] == '_' || t[i-1] >= '0' && t[i-1] <= '9' || t[i] == 'X' && t[i-1] >= 'a' && t[i-1] <= 'z'
		ends := j == len(t) || t[j] == '_' || t[j] >= '0' && t[j] <= '9' || t[j] >= 'A' && t[j] <= 'Z'
		if j-i >= 3 && starts && ends {
			return true
		}
		i = j
	}
	return false
}

// codeShaped: snake_case, an inner capital, or letters with digits.
func codeShaped(t string) bool {
	letters, inner, digit, under := false, false, false, false
	for i, c := range t {
		switch {
		case c == '_':
			under = i > 0 && i < len(t)-1
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'A' && c <= 'Z':
			if i > 0 {
				inner = true
			}
			letters = true
		case c >= 'a' && c <= 'z':
			letters = true
		}
	}
	if !letters {
		return false
	}
	if inner && strings.ToUpper(t) == t && !under {
		return false // an acronym: HTTP, JSON, README
	}
	return under || inner || (digit && len(t) > 3)
}
