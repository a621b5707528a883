package memfile

import "testing"

func TestAppendLink(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"no frontmatter", "# body\n", "---\nlinks:\n  - related: other\n---\n# body\n"},
		{"no links key", "---\nid: m # the id\nx: 1\n---\nbody\n", "---\nid: m # the id\nx: 1\nlinks:\n  - related: other\n---\nbody\n"},
		{"block list", "---\nlinks:\n  - supersedes: old\n    # note\ntags: [a]\n---\nbody\n", "---\nlinks:\n  - supersedes: old\n  - related: other\n    # note\ntags: [a]\n---\nbody\n"}, // a comment's indentation is not structure (yamledit): the item goes where the block ends
		{"flow list", "---\nlinks: [{related: a}]\n---\nbody\n", "---\nlinks: [{related: a}, {related: other}]\n---\nbody\n"},
		{"empty", "---\nlinks:\nid: m\n---\nbody\n", "---\nlinks:\n  - related: other\nid: m\n---\nbody\n"},
		{"crlf", "---\r\nid: m\r\n---\r\nbody\r\n", "---\r\nid: m\r\nlinks:\r\n  - related: other\r\n---\r\nbody\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("m.md", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			edits, err := f.AppendLink("related", "other")
			if err != nil {
				t.Fatal(err)
			}
			out, g, err := Rewrite(f, edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", out, tc.want)
			}
			if n := len(g.Links); n == 0 || g.Links[n-1].Type != "related" || g.Links[n-1].Target != "other" {
				t.Errorf("links read back: %+v", g.Links)
			}
		})
	}
	f, _ := Parse("m.md", []byte("---\nlinks: 3\n---\n"))
	if _, err := f.AppendLink("related", "x"); err == nil {
		t.Error("links: 3 accepted")
	}
	if _, err := f.AppendLink("bogus", "x"); err == nil {
		t.Error("an unknown link type accepted")
	}
}
