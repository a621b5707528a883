package relocbench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// lineObj is one line of the model with its identity: edits that keep a
// line recognisable keep its id, deletions drop it, so the truth of every
// citation is where its id ends up.
type lineObj struct {
	id   int
	text string
}

type file struct {
	lines []lineObj
	crlf  bool
}

// state is the content of a repository version.
type state struct {
	files  map[string]*file
	nextID *int
}

func (s *state) clone() *state {
	c := &state{files: map[string]*file{}, nextID: s.nextID}
	for p, f := range s.files {
		c.files[p] = &file{lines: append([]lineObj(nil), f.lines...), crlf: f.crlf}
	}
	return c
}

func (s *state) newLine(text string) lineObj {
	*s.nextID++
	return lineObj{id: *s.nextID, text: text}
}

func (s *state) paths() []string {
	ps := make([]string, 0, len(s.files))
	for p := range s.files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

func (f *file) content() []byte {
	var sb strings.Builder
	eol := "\n"
	if f.crlf {
		eol = "\r\n"
	}
	for _, l := range f.lines {
		sb.WriteString(l.text)
		sb.WriteString(eol)
	}
	return []byte(sb.String())
}

// corpus is a set of source files to build repositories from.
type corpus struct {
	files [][]string // lines
}

// loadCorpus reads Go files of 150 to 900 lines from the standard library
// sources in goroot/src (deterministic order), at most n of them.
func loadCorpus(goroot string, n int) (*corpus, error) {
	var paths []string
	root := filepath.Join(goroot, "src")
	for _, dir := range []string{"strings", "bytes", "bufio", "text/template", "go/ast", "go/printer", "encoding/json", "encoding/csv", "net/url", "flag", "sort", "archive/tar", "compress/flate", "regexp/syntax", "time", "strconv", "fmt", "os/exec", "html/template", "mime"} {
		ents, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			continue
		}
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
				paths = append(paths, filepath.Join(root, dir, e.Name()))
			}
		}
	}
	c := &corpus{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("relocbench: reading corpus: %w", err)
		}
		ls := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(ls) < 150 || len(ls) > 900 || strings.Contains(string(b), "\r") {
			continue
		}
		if len(blocks(ls)) < 4 {
			continue
		}
		c.files = append(c.files, ls)
		if len(c.files) == n {
			break
		}
	}
	if len(c.files) < 8 {
		return nil, fmt.Errorf("relocbench: found only %d usable Go files under %s", len(c.files), root)
	}
	return c, nil
}

// blocks returns the top-level functions of a file as [start, end] line
// ranges (inclusive), including the doc comment above them.
func blocks(ls []string) [][2]int {
	var out [][2]int
	for i := 0; i < len(ls); i++ {
		if !strings.HasPrefix(ls[i], "func ") || strings.HasSuffix(ls[i], "}") {
			continue
		}
		j := i + 1
		for j < len(ls) && ls[j] != "}" {
			if strings.HasPrefix(ls[j], "func ") {
				break
			}
			j++
		}
		if j >= len(ls) || ls[j] != "}" || j-i < 3 {
			continue
		}
		s := i
		for s > 0 && strings.HasPrefix(ls[s-1], "//") {
			s--
		}
		out = append(out, [2]int{s, j})
		i = j
	}
	return out
}

func fileBlocks(f *file) [][2]int {
	ls := make([]string, len(f.lines))
	for i, l := range f.lines {
		ls[i] = l.text
	}
	return blocks(ls)
}

// citable reports whether a line is something a person would cite.
func citable(s string) bool {
	t := strings.TrimSpace(s)
	return len(strings.ReplaceAll(t, " ", "")) >= 3 && !strings.HasPrefix(t, "//")
}

var identRe = regexp.MustCompile(`\b[a-z][A-Za-z0-9]{3,}\b`)

var goKeywords = map[string]bool{"func": true, "return": true, "range": true, "break": true, "continue": true, "switch": true, "case": true, "default": true, "type": true, "struct": true, "interface": true, "package": true, "import": true, "const": true, "else": true, "defer": true, "select": true, "chan": true, "goto": true, "true": true, "false": true, "string": true, "byte": true, "rune": true, "error": true, "bool": true, "int64": true, "uint64": true, "int32": true, "uint32": true, "uint8": true, "float64": true, "append": true, "make": true, "copy": true, "panic": true, "nil": true, "len": true, "cap": true, "iota": true, "fallthrough": true, "float32": true, "uint16": true, "int16": true, "uintptr": true, "delete": true}

// lightEdit changes a line the way a small refactor does (rename one
// identifier, change a literal, add a trailing comment) while keeping it
// recognisable. ok is false if no such edit exists.
func lightEdit(r *rand.Rand, s string) (string, bool) {
	ids := identRe.FindAllStringIndex(s, -1)
	var cands [][2]int
	for _, m := range ids {
		if w := s[m[0]:m[1]]; !goKeywords[w] && !inString(s, m[0]) {
			cands = append(cands, [2]int{m[0], m[1]})
		}
	}
	for try := 0; try < 3; try++ {
		var out string
		switch k := r.IntN(3); {
		case k == 0 && len(cands) > 0:
			m := cands[r.IntN(len(cands))]
			out = s[:m[0]] + s[m[0]:m[1]] + "Val" + s[m[1]:]
		case k == 1 && strings.ContainsAny(s, "0123456789"):
			i := strings.IndexAny(s, "0123456789")
			out = s[:i] + "1" + s[i:]
		default:
			if strings.Contains(s, "//") {
				continue
			}
			out = s + " // checked"
		}
		if out != "" && out != s && gitblame.Similarity(s, out) >= 0.6 {
			return out, true
		}
	}
	return s, false
}

func inString(s string, i int) bool {
	return strings.Count(s[:i], `"`)%2 == 1
}

func pkgName(f *file) string {
	for _, l := range f.lines {
		if strings.HasPrefix(l.text, "package ") {
			return l.text
		}
	}
	return "package p"
}
