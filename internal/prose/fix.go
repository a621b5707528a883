package prose

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

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
