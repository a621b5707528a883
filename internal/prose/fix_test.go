package prose

import (
	"testing"

	"github.com/git-memcite/git-memcite/internal/verify"
)

func TestFixFor(t *testing.T) {
	const mem = ".serena/memories/topic/notes.md"
	tests := []struct {
		name string
		ref  verify.ProseRef
		want string // "" for no fix
	}{
		{"root path", verify.ProseRef{Kind: "path", Form: FormBackticked, Text: "src/shop.go", Target: "src/shop.go", Now: "src/order.go"}, "src/order.go"},
		{"path with lines keeps its lines outside the bytes", verify.ProseRef{Kind: "lines", Form: FormPathLine, Text: "src/shop.go", Target: "src/shop.go", Now: "lib/shop.go"}, "lib/shop.go"},
		{"bare name", verify.ProseRef{Kind: "path", Form: FormBare, Text: "shop.go", Target: "src/shop.go", Now: "src/order.go"}, "order.go"},
		{"suffix path", verify.ProseRef{Kind: "path", Form: FormBackticked, Text: "app/shop.go", Target: "src/app/shop.go", Now: "src/app/order.go"}, "src/app/order.go"},
		{"relative link", verify.ProseRef{Kind: "path", Form: FormLink, Text: "../../../src/shop.go", Target: "src/shop.go", Now: "src/order.go"}, "../../../src/order.go"},
		{"memory link", verify.ProseRef{Kind: "memory", Form: FormLink, Text: "other.md", Target: ".serena/memories/topic/other.md", Now: ".serena/memories/topic/other-renamed.md"}, "other-renamed.md"},
		{"memory link moved to another folder", verify.ProseRef{Kind: "memory", Form: FormLink, Text: "other.md", Target: ".serena/memories/topic/other.md", Now: ".serena/memories/archive/other.md"}, "../archive/other.md"},
		{"wiki link", verify.ProseRef{Kind: "memory", Form: FormWiki, Text: "other", Target: ".serena/memories/topic/other.md", Now: ".serena/memories/topic/renamed.md"}, "renamed"},
		{"frontmatter name", verify.ProseRef{Kind: "memory", Form: FormFrontmatter, Text: "other", Target: ".serena/memories/other.md", Now: ".serena/memories/renamed.md"}, "renamed"},
		{"deleted: nowhere to go", verify.ProseRef{Kind: "path", Form: FormBackticked, Text: "src/gone.go", Target: "src/gone.go"}, ""},
		{"unknown bytes", verify.ProseRef{Kind: "path", Form: FormFrontmatter, Text: "a", Target: "a", Now: "b", Start: -1, Stop: -1}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.ref
			if r.Stop == 0 {
				r.Start, r.Stop = 10, 10+len(r.Text)
			}
			f, ok := FixFor(mem, r)
			if got := map[bool]string{true: f.New}[ok]; got != tc.want {
				t.Errorf("got %q (ok %v); want %q", f.New, ok, tc.want)
			}
		})
	}
}

func TestApplyTouchesOnlyTheReferenceBytes(t *testing.T) {
	src := []byte("---\r\nid: n\r\n---\r\nSee `src/shop.go` and [o](other.md).\r\n\xff odd byte kept\r\n")
	a := Extract(src, Options{})
	if len(a) != 2 {
		t.Fatalf("refs: %+v", a)
	}
	fixes := []Fix{
		{Line: a[1].MemLine, Start: a[1].Start, Stop: a[1].Stop, Old: a[1].Target, New: "renamed.md"},
		{Line: a[0].MemLine, Start: a[0].Start, Stop: a[0].Stop, Old: a[0].Target, New: "src/order.go"},
	}
	out, err := Apply(src, fixes)
	if err != nil {
		t.Fatal(err)
	}
	want := "---\r\nid: n\r\n---\r\nSee `src/order.go` and [o](renamed.md).\r\n\xff odd byte kept\r\n"
	if string(out) != want {
		t.Errorf("got %q\nwant %q", out, want)
	}
	// a file changed since it was read is not rewritten
	if _, err := Apply([]byte("---\r\nid: n\r\n---\r\nSee `src/xxxx.go`"), fixes[1:]); err == nil {
		t.Error("no error for bytes that changed")
	}
}
