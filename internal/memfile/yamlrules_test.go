package memfile

import "testing"

// TestEditsFollowYAMLLineRules: the edits read lines as YAML does
// (internal/yamledit): a comment's indentation is not structure, a tab
// is not indentation, and a '#' at the start of a line in a flow
// collection starts a comment. Each case failed with the rules this
// package had before.
func TestEditsFollowYAMLLineRules(t *testing.T) {
	tests := []struct {
		name string
		src  string
		edit func(f *File) ([]Edit, error)
		want string
	}{
		{
			"removing a key keeps the indented comment after it",
			"---\nold: 1\n  # about confidence\nconfidence: 0.5\n---\nBody\n",
			func(f *File) ([]Edit, error) { return f.SetTop(Field{"old", nil}) },
			"---\n  # about confidence\nconfidence: 0.5\n---\nBody\n",
		},
		{
			"removing a key removes its whole block, a comment at the margin inside it too",
			"---\ntitle: x\nold:\n  - a\n# b is new\n  - b\nconfidence: 0.5\n---\nBody\n",
			func(f *File) ([]Edit, error) { return f.SetTop(Field{"old", nil}) },
			"---\ntitle: x\nconfidence: 0.5\n---\nBody\n",
		},
		{
			"removing the last citation, its quoted path continued on a tab-led line",
			"---\ncitations:\n  - path: a.go\n  - path: 'b\n\tc.go'\n    line: 2\nconfidence: 0.5\n---\nBody\n",
			func(f *File) ([]Edit, error) { return f.RemoveCitation(1) },
			"---\ncitations:\n  - path: a.go\nconfidence: 0.5\n---\nBody\n",
		},
		{
			"appending to a flow list with a comment line holding a bracket",
			"---\ncitations: [a.go,\n# ] not the end\n b.go]\n---\nBody\n",
			func(f *File) ([]Edit, error) { return f.AppendCitation(true, Field{"path", "c.go"}) },
			"---\ncitations: [a.go,\n# ] not the end\n b.go, c.go]\n---\nBody\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("m.md", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			es, err := tc.edit(f)
			if err != nil {
				t.Fatal(err)
			}
			out, _, err := Rewrite(f, es)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", out, tc.want)
			}
		})
	}
}
