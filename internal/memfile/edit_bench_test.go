package memfile

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkEdits: the edits relocate --fix and adopt make to a memory
// with 20 citations: move a line, add a citation, remove one, set a
// top-level key, each rewritten and re-parsed.
func BenchmarkEdits(b *testing.B) {
	var src strings.Builder
	src.WriteString("---\nid: m\nsubject: a memory # about it\ncitations:\n")
	for i := range 20 {
		fmt.Fprintf(&src, "  - path: src/file%d.go\n    line: %d\n    snippet: \"func f%d() {\"\n    # note %d\n", i, i+3, i, i)
	}
	src.WriteString("confidence: 0.5\ntags: [a, b]\n---\n# Body\n\nText.\n")
	f, err := Parse("m.md", []byte(src.String()))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, edit := range []func() ([]Edit, error){
			func() ([]Edit, error) {
				return f.SetCitation(7, Field{"line", 12}, Field{"commit", "0123456789abcdef0123456789abcdef01234567"})
			},
			func() ([]Edit, error) { return f.AppendCitation(false, Field{"path", "src/new.go"}, Field{"line", 9}) },
			func() ([]Edit, error) { return f.RemoveCitation(19) },
			func() ([]Edit, error) { return f.SetTop(Field{"confidence", 0.75}) },
		} {
			es, err := edit()
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := Rewrite(f, es); err != nil {
				b.Fatal(err)
			}
		}
	}
}
