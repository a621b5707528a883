package hookinstall

import (
	"errors"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/hooks"
	"github.com/git-memcite/git-memcite/internal/yamledit"
)

func TestLefthookAddRemove(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		hooks []string
		want  string // after lefthookAdd
	}{
		{name: "empty file", src: "", hooks: []string{"pre-commit", "post-rewrite"}, want: `pre-commit:
  commands:
    memcite:
      run: git memcite hook pre-commit
post-rewrite:
  commands:
    memcite:
      run: git memcite hook post-rewrite {1}
      use_stdin: true
`},
		{name: "into existing commands, other hooks and comments kept", hooks: []string{"pre-commit", "post-merge"}, src: `# team hooks
pre-commit:
  parallel: true
  commands:
    lint:
      run: make lint # fast

    test:
      run: go test ./...
# pushes
pre-push:
  commands:
    x:
      run: "true"
`, want: `# team hooks
pre-commit:
  parallel: true
  commands:
    lint:
      run: make lint # fast

    test:
      run: go test ./...
    memcite:
      run: git memcite hook pre-commit
# pushes
pre-push:
  commands:
    x:
      run: "true"
post-merge:
  commands:
    memcite:
      run: git memcite hook post-merge {1}
`},
		{name: "four-space indentation", hooks: []string{"pre-commit", "post-merge"}, src: `pre-commit:
    commands:
        lint:
            run: make lint
`, want: `pre-commit:
    commands:
        lint:
            run: make lint
        memcite:
            run: git memcite hook pre-commit
post-merge:
    commands:
        memcite:
            run: git memcite hook post-merge {1}
`},
		{name: "jobs", hooks: []string{"pre-commit"}, src: `pre-commit:
  jobs:
    - name: lint
      run: make lint
    - run: make test
output: [failure]
`, want: `pre-commit:
  jobs:
    - name: lint
      run: make lint
    - run: make test
    - name: memcite
      run: git memcite hook pre-commit
output: [failure]
`},
		{name: "jobs at the key's indentation", hooks: []string{"pre-commit"}, src: `pre-commit:
  jobs:
  - name: lint
    run: make lint
`, want: `pre-commit:
  jobs:
  - name: lint
    run: make lint
  - name: memcite
    run: git memcite hook pre-commit
`},
		{name: "hook without commands", hooks: []string{"pre-commit"}, src: `pre-commit:
  parallel: true
  scripts:
    "a.sh":
      runner: bash
`, want: `pre-commit:
  parallel: true
  scripts:
    "a.sh":
      runner: bash
  commands:
    memcite:
      run: git memcite hook pre-commit
`},
		{name: "no final newline", hooks: []string{"post-merge"}, src: "pre-commit:\n  commands:\n    a:\n      run: x", want: `pre-commit:
  commands:
    a:
      run: x
post-merge:
  commands:
    memcite:
      run: git memcite hook post-merge {1}`},
		{name: "no final newline, inside", hooks: []string{"pre-commit"}, src: "pre-commit:\n  commands:\n    a:\n      run: x", want: `pre-commit:
  commands:
    a:
      run: x
    memcite:
      run: git memcite hook pre-commit`},
		{name: "CRLF", hooks: []string{"pre-commit"}, src: "pre-commit:\r\n  commands:\r\n    a:\r\n      run: x\r\n",
			want: "pre-commit:\r\n  commands:\r\n    a:\r\n      run: x\r\n    memcite:\r\n      run: git memcite hook pre-commit\r\n"},
		{name: "after a block scalar whose last line starts with '#' (content, not a comment)", hooks: []string{"pre-commit"},
			src:  "pre-commit:\n  commands:\n    lint:\n      run: |\n        make lint\n        # then the rest\n",
			want: "pre-commit:\n  commands:\n    lint:\n      run: |\n        make lint\n        # then the rest\n    memcite:\n      run: git memcite hook pre-commit\n"},
		{name: "already there", hooks: []string{"pre-commit"}, src: "pre-commit:\n  commands:\n    mine:\n      run: git memcite hook pre-commit\n",
			want: "pre-commit:\n  commands:\n    mine:\n      run: git memcite hook pre-commit\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := lefthookAdd([]byte(tc.src), tc.hooks)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("lefthookAdd:\n%s\nwant:\n%s", got, tc.want)
			}
			again, added, err := lefthookAdd(got, tc.hooks)
			if err != nil || string(again) != tc.want || len(added) != 0 {
				t.Errorf("second lefthookAdd changed the file (%v, added %v):\n%s", err, added, again)
			}
			back, _, kept, err := lefthookRemove(got)
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != tc.src && tc.name != "already there" {
				t.Errorf("lefthookRemove did not give the file back:\n%q\nwant:\n%q", back, tc.src)
			}
			if len(kept) != 0 {
				t.Errorf("kept %v", kept)
			}
		})
	}
}

func TestLefthookRemoveKeepsWhatWasChangedByHand(t *testing.T) {
	src := "pre-commit:\n  commands:\n    memcite:\n      run: git memcite hook pre-commit\n      skip: merge\n"
	out, removed, kept, err := lefthookRemove([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != src || len(removed) != 0 || strings.Join(kept, ",") != "pre-commit" {
		t.Errorf("got %q removed %v kept %v", out, removed, kept)
	}
}

func TestLefthookAddUnsupported(t *testing.T) {
	for name, src := range map[string]string{
		"flow":      "pre-commit: {commands: {a: {run: x}}}\n",
		"documents": "pre-commit:\n  commands:\n    a:\n      run: x\n---\nb: 1\n",
		"tabs":      "pre-commit:\n\tcommands: {}\n",
		"alias":     "x: &x\n  commands:\n    a:\n      run: y\npre-commit: *x\n",
		"json":      `{"pre-commit": {"commands": {"a": {"run": "x"}}}}`,
	} {
		if _, _, err := lefthookAdd([]byte(src), hooks.Names); !errors.Is(err, yamledit.ErrUnsupported) {
			t.Errorf("%s: err %v; want yamledit.ErrUnsupported", name, err)
		}
	}
	if _, _, err := lefthookAdd([]byte("a: [\n"), hooks.Names); err == nil || errors.Is(err, yamledit.ErrUnsupported) {
		t.Errorf("invalid YAML: err %v", err)
	}
}

func TestLefthookHookRuns(t *testing.T) {
	tests := []struct {
		name, main, local, hook string
		where, note             string
	}{
		{name: "command", main: "pre-commit:\n  commands:\n    memcite:\n      run: git memcite hook pre-commit\n", hook: "pre-commit", where: "commands.memcite"},
		{name: "other hook", main: "pre-commit:\n  commands:\n    memcite:\n      run: git memcite hook pre-commit\n", hook: "post-merge"},
		{name: "job", main: "post-merge:\n  jobs:\n    - run: git-memcite hook post-merge {1}\n", hook: "post-merge", where: "jobs[0]"},
		{name: "old recipe", main: "pre-commit:\n  jobs:\n    - name: memcite\n      run: git memcite verify-all --staged\n", hook: "pre-commit",
			where: "jobs.memcite", note: "not 'git memcite hook pre-commit'"},
		{name: "pre-commit command at post-merge", main: "post-merge:\n  commands:\n    m:\n      run: git memcite hook pre-commit\n", hook: "post-merge"},
		{name: "hook skipped", main: "pre-commit:\n  skip: true\n  commands:\n    memcite:\n      run: git memcite hook pre-commit\n", hook: "pre-commit", note: "skips"},
		{name: "skipped locally", main: "pre-commit:\n  commands:\n    memcite:\n      run: git memcite hook pre-commit\n",
			local: "pre-commit:\n  commands:\n    memcite:\n      skip: true\n", hook: "pre-commit", note: "skips"},
		{name: "only local", local: "pre-commit:\n  commands:\n    mc:\n      run: git memcite hook pre-commit\n", hook: "pre-commit", where: "commands.mc"},
		{name: "conditional skip", main: "pre-commit:\n  commands:\n    memcite:\n      run: git memcite hook pre-commit\n      skip: [merge]\n", hook: "pre-commit",
			where: "commands.memcite", note: "skip condition"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			main, err := yamledit.ParseMapping([]byte(tc.main))
			if err != nil {
				t.Fatal(err)
			}
			local, err := yamledit.ParseMapping([]byte(tc.local))
			if err != nil {
				t.Fatal(err)
			}
			where, note := lefthookHookRuns(main, local, tc.hook)
			if where != tc.where || !strings.Contains(note, tc.note) || (tc.note == "" && note != "") {
				t.Errorf("got (%q, %q); want (%q, …%q…)", where, note, tc.where, tc.note)
			}
		})
	}
}

// FuzzLefthookEdit: on any input, adding then removing our commands gives
// the input back byte for byte, or the input is refused.
func FuzzLefthookEdit(f *testing.F) {
	for _, s := range []string{"", "pre-commit:\n  commands:\n    a:\n      run: x\n", "pre-commit:\n  jobs:\n  - run: x", "a: 1\r\n", "# c\npost-merge:\n  parallel: true\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, added, err := lefthookAdd([]byte(src), hooks.Names)
		if err != nil {
			return
		}
		if _, err := yamledit.ParseMapping(out); err != nil {
			t.Fatalf("lefthookAdd made invalid YAML from %q:\n%q: %v", src, out, err)
		}
		back, removed, _, err := lefthookRemove(out)
		if err != nil {
			t.Fatalf("lefthookRemove: %v on %q", err, out)
		}
		if len(removed) < len(added) {
			t.Fatalf("added %v, removed %v: %q", added, removed, out)
		}
		if len(added) == len(hooks.Names) && string(back) != src {
			t.Fatalf("round trip of %q:\n%q\ngave %q", src, out, back)
		}
	})
}
