package prose

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Fix rewrites one prose reference: the bytes Start to Stop of the memory
// file, which hold Old, become New. Nothing else of the file changes.
type Fix struct {
	Line        int // line of the memory file
	Start, Stop int
	Old, New    string
}

// FixFor returns the rewrite of a stale reference whose target moved (a
// file moved, a memory renamed): written as a path from the repository
// root, it gets the new path; as a markdown link relative to the memory,
// the new relative path; as a bare file name, the new file name; as a
// memory name, the new name. ok is false for a reference with nowhere to
// go (deleted, lines, symbols) or without known bytes.
func FixFor(memPath string, ref verify.ProseRef) (Fix, bool) {
	if ref.Now == "" || ref.Start < 0 || ref.Stop <= ref.Start || ref.Unresolved {
		return Fix{}, false
	}
	f := Fix{Line: ref.Line, Start: ref.Start, Stop: ref.Stop, Old: ref.Text}
	withMD := strings.HasSuffix(strings.ToLower(ref.Text), ".md")
	switch {
	case ref.Kind == "memory" && (ref.Form == FormWiki || ref.Form == FormFrontmatter || ref.Form == FormName ||
		(ref.Form == FormBackticked && !strings.Contains(ref.Text, "/"))):
		name := strings.TrimSuffix(path.Base(ref.Now), ".md")
		if strings.Contains(ref.Text, "/") {
			name = strings.TrimSuffix(relativeTo(memPath, ref.Now), ".md")
		}
		if withMD {
			name += ".md"
		}
		f.New = name
	case ref.Text == ref.Target:
		f.New = ref.Now // written from the repository root
	case ref.Form == FormLink || strings.HasPrefix(ref.Text, "./") || strings.HasPrefix(ref.Text, "../"):
		f.New = relativeTo(memPath, ref.Now)
	case !strings.Contains(ref.Text, "/"):
		f.New = path.Base(ref.Now)
	default:
		f.New = ref.Now
	}
	if f.New == "" || f.New == f.Old {
		return Fix{}, false
	}
	return f, true
}

// Fixes returns the rewrites relocate --prose makes of the stale
// reference cr of a memory (src, at memPath), at its own place: its new
// name when its target moved (FixFor), else its lines' new numbers
// (LineFixes); none when it has nowhere to go.
func Fixes(src []byte, memPath string, cr verify.CitationResult) []Fix {
	if cr.Prose == nil {
		return nil
	}
	if f, ok := FixFor(memPath, *cr.Prose); ok {
		return []Fix{f}
	}
	return LineFixes(src, memPath, cr)
}

// LineFixes returns the rewrites of a stale reference of lines that line
// identity followed to another place (verify.KindMoved, cr.Now): the
// numbers written after the path become the lines' new ones, and the path
// the new path when they went to another file. src is the memory file.
// Only the bytes of the path and of each number change: "`a.go` line 17"
// becomes "`a.go` line 23", "a.go#L17-L28" "a.go#L23-L34". Nothing is
// returned when the numbers cannot be found as written after the path on
// its line, or when a range would become one line (or the reverse).
func LineFixes(src []byte, memPath string, cr verify.CitationResult) []Fix {
	ref, c := cr.Prose, cr.Citation
	if ref == nil || c == nil || cr.Now == nil || cr.Kind != verify.KindMoved || ref.Kind != "lines" || ref.Unresolved ||
		ref.Start < 0 || ref.Stop <= ref.Start || ref.Stop > len(src) || string(src[ref.Start:ref.Stop]) != ref.Text {
		return nil
	}
	now := *cr.Now
	if (c.LineEnd > c.Line) != (now.LineEnd > now.Line) || now.Line < 1 {
		return nil
	}
	eol := bytes.IndexByte(src[ref.Stop:], '\n')
	if eol < 0 {
		eol = len(src) - ref.Stop
	}
	want := []int{c.Line}
	put := []int{now.Line}
	if c.LineEnd > c.Line {
		want, put = append(want, c.LineEnd), append(put, now.LineEnd)
	}
	var fixes []Fix
	at := ref.Stop
	for i, n := range want {
		a, b, ok := nextNumber(src[:ref.Stop+eol], at, n)
		if !ok {
			return nil
		}
		if n != put[i] {
			fixes = append(fixes, Fix{Line: ref.Line, Start: a, Stop: b, Old: string(src[a:b]), New: strconv.Itoa(put[i])})
		}
		at = b
	}
	if now.Path != "" && now.Path != c.Path {
		moved := *ref
		moved.Now = now.Path
		f, ok := FixFor(memPath, moved)
		if !ok {
			return nil // the lines went to a file the reference cannot be rewritten to name
		}
		fixes = append([]Fix{f}, fixes...)
	}
	return fixes
}

// nextNumber finds the first whole decimal number in s at or after from
// (not part of a longer run of digits) and reports whether it is n.
func nextNumber(s []byte, from, n int) (int, int, bool) {
	for i := from; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' || (i > 0 && s[i-1] >= '0' && s[i-1] <= '9') {
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		v, err := strconv.Atoi(string(s[i:j]))
		return i, j, err == nil && v == n
	}
	return 0, 0, false
}

// Occurrences returns every place in src (a memory file, read with o)
// where the reference ref of citation c is written: the references
// extracted there with the same lines and the same text (for a file, also
// the path it resolved to, or a trailing part of that path after a "/"),
// ref's own place included. A memory that names a file twice is judged once (its first
// place, ref); a fix rewrites each place.
func Occurrences(src []byte, o Options, ref verify.ProseRef, c memfile.Citation) []verify.ProseRef {
	out := []verify.ProseRef{ref}
	if ref.Start < 0 {
		return out
	}
	line, end := 0, 0
	if ref.Kind == "lines" {
		line, end = c.Line, c.LineEnd
	}
	for _, r := range Extract(src, o) {
		if r.Kind == KindSymbol || r.Line != line || r.End != end || r.Start == ref.Start || r.Start < 0 {
			continue
		}
		// the same text, or (a file) the path it resolved to, whole or a
		// trailing part of it as a shorter mention writes it
		same := r.Target == ref.Text
		if !same && ref.Kind != "memory" && ref.Target != "" && r.Kind != KindMemory {
			same = r.Target == ref.Target || strings.HasSuffix(ref.Target, "/"+r.Target)
		}
		if !same {
			continue
		}
		occ := ref
		occ.Text, occ.Form, occ.Line, occ.Start, occ.Stop = r.Target, r.Form, r.MemLine, r.Start, r.Stop
		out = append(out, occ)
	}
	return out
}

// relativeTo is the slash path from the memory's folder to p.
func relativeTo(memPath, p string) string {
	rel, err := filepath.Rel(filepath.FromSlash(path.Dir(memPath)), filepath.FromSlash(p))
	if err != nil {
		return p
	}
	return filepath.ToSlash(rel)
}

// Apply splices fixes into src. Each fix must still find its Old bytes
// where it was read (else the file changed since: an error, nothing
// applied); fixes must not overlap.
func Apply(src []byte, fixes []Fix) ([]byte, error) {
	fs := append([]Fix(nil), fixes...)
	sort.Slice(fs, func(a, b int) bool { return fs[a].Start < fs[b].Start })
	var out bytes.Buffer
	at := 0
	for _, f := range fs {
		if f.Start < at || f.Stop > len(src) || string(src[f.Start:f.Stop]) != f.Old {
			return nil, fmt.Errorf("line %d: %q is no longer where it was read", f.Line, f.Old)
		}
		out.Write(src[at:f.Start])
		out.WriteString(f.New)
		at = f.Stop
	}
	out.Write(src[at:])
	return out.Bytes(), nil
}
