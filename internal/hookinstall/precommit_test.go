package hookinstall

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/hooks"
	"github.com/git-memcite/git-memcite/internal/yamledit"
	"go.yaml.in/yaml/v3"
)

const testURL = "https://github.com/git-memcite/git-memcite"

func TestPreCommitAddRemove(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		hooks []string
		want  string
	}{
		{name: "empty", hooks: hooks.Names, src: "", want: `repos:
  - repo: https://github.com/git-memcite/git-memcite
    rev: v0.1.0
    hooks:
      - id: memcite
      - id: memcite-post-merge
      - id: memcite-post-rewrite
`},
		{name: "sample-config style", hooks: []string{"pre-commit"}, src: `# See https://pre-commit.com
default_install_hook_types: [pre-commit, post-merge]
repos:
-   repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v3.2.0
    hooks:
    -   id: trailing-whitespace
    -   id: end-of-file-fixer

# local tools
-   repo: local
    hooks:
    -   id: marker
        name: marker
        entry: touch marker
        language: system
fail_fast: false
`, want: `# See https://pre-commit.com
default_install_hook_types: [pre-commit, post-merge]
repos:
-   repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v3.2.0
    hooks:
    -   id: trailing-whitespace
    -   id: end-of-file-fixer

# local tools
-   repo: local
    hooks:
    -   id: marker
        name: marker
        entry: touch marker
        language: system
-   repo: https://github.com/git-memcite/git-memcite
    rev: v0.1.0
    hooks:
    -   id: memcite
fail_fast: false
`},
		{name: "indented list, no final newline", hooks: []string{"pre-commit", "post-merge"}, src: "repos:\n  - repo: local\n    hooks:\n      - id: x\n        name: x\n        entry: x\n        language: system", want: `repos:
  - repo: local
    hooks:
      - id: x
        name: x
        entry: x
        language: system
  - repo: https://github.com/git-memcite/git-memcite
    rev: v0.1.0
    hooks:
      - id: memcite
      - id: memcite-post-merge`},
		{name: "no repos key", hooks: []string{"post-rewrite"}, src: "minimum_pre_commit_version: '3.0.0'\n", want: `minimum_pre_commit_version: '3.0.0'
repos:
  - repo: https://github.com/git-memcite/git-memcite
    rev: v0.1.0
    hooks:
      - id: memcite-post-rewrite
`},
		{name: "already there as a local hook", hooks: []string{"pre-commit"}, src: "repos:\n- repo: local\n  hooks:\n  - id: mc\n    name: mc\n    entry: git memcite hook pre-commit\n    language: system\n",
			want: "repos:\n- repo: local\n  hooks:\n  - id: mc\n    name: mc\n    entry: git memcite hook pre-commit\n    language: system\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := preCommitAdd([]byte(tc.src), tc.hooks, testURL, "v0.1.0", false)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("preCommitAdd:\n%s\nwant:\n%s", got, tc.want)
			}
			if again, added, err := preCommitAdd(got, tc.hooks, testURL, "v0.1.0", false); err != nil || string(again) != tc.want || len(added) != 0 {
				t.Errorf("second preCommitAdd changed the file (%v, %v)", err, added)
			}
			back, _, err := preCommitRemove(got)
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != tc.src {
				t.Errorf("preCommitRemove did not give the file back:\n%q\nwant:\n%q", back, tc.src)
			}
		})
	}
}

func TestPreCommitRemoveWhateverTheRevAndURL(t *testing.T) {
	before := "repos:\n- repo: local\n  hooks: []\n"
	src := before + "- repo: /tmp/mirror/git-memcite\n  rev: 0123abc\n  hooks:\n  - id: memcite\n"
	out, ids, err := preCommitRemove([]byte(src))
	if err != nil || string(out) != before || !reflect.DeepEqual(ids, []string{"memcite"}) {
		t.Errorf("got %q %v %v", out, ids, err)
	}
	// an entry with more than our ids is the user's
	own := "repos:\n- repo: https://github.com/git-memcite/git-memcite\n  rev: v1\n  hooks:\n  - id: memcite\n    stages: [manual]\n"
	if out, ids, _ := preCommitRemove([]byte(own)); string(out) != own || ids != nil {
		t.Errorf("removed a changed entry: %q %v", out, ids)
	}
}

func TestPreCommitAddUnsupported(t *testing.T) {
	for name, src := range map[string]string{
		"flow repos": "repos: []\n",
		"flow":       "{repos: [{repo: local, hooks: []}]}\n",
	} {
		if _, _, err := preCommitAdd([]byte(src), hooks.Names, testURL, "v1", false); !errors.Is(err, yamledit.ErrUnsupported) {
			t.Errorf("%s: err %v; want yamledit.ErrUnsupported", name, err)
		}
	}
}

func TestPreCommitHookRuns(t *testing.T) {
	tests := []struct {
		name, cfg, hook string
		where, note     string
	}{
		{name: "memcite at pre-commit", cfg: "repos:\n- repo: x\n  rev: v1\n  hooks:\n  - id: memcite\n", hook: "pre-commit", where: "memcite"},
		{name: "memcite at pre-merge-commit", cfg: "repos:\n- repo: x\n  rev: v1\n  hooks:\n  - id: memcite\n", hook: "pre-merge-commit", where: "memcite"},
		{name: "memcite does nothing at post-merge", cfg: "repos:\n- repo: x\n  rev: v1\n  hooks:\n  - id: memcite\n", hook: "post-merge"},
		{name: "default_stages", cfg: "default_stages: [pre-push]\nrepos:\n- repo: x\n  rev: v1\n  hooks:\n  - id: memcite\n", hook: "pre-commit"},
		{name: "old default_stages name", cfg: "default_stages: [commit]\nrepos:\n- repo: x\n  rev: v1\n  hooks:\n  - id: memcite\n", hook: "pre-commit", where: "memcite"},
		{name: "stages override", cfg: "repos:\n- repo: x\n  rev: v1\n  hooks:\n  - id: memcite\n    stages: [manual]\n", hook: "pre-commit"},
		{name: "post-merge id", cfg: "repos:\n- repo: x\n  rev: v1\n  hooks:\n  - id: memcite-post-merge\n", hook: "post-merge", where: "memcite-post-merge"},
		{name: "memcite-all is manual", cfg: "repos:\n- repo: x\n  rev: v1\n  hooks:\n  - id: memcite-all\n", hook: "pre-commit"},
		{name: "local hook", cfg: "repos:\n- repo: local\n  hooks:\n  - id: cite\n    name: c\n    entry: git memcite hook post-rewrite\n    language: system\n    stages: [post-rewrite]\n", hook: "post-rewrite", where: "local: cite"},
		{name: "old recipe", cfg: "repos:\n- repo: local\n  hooks:\n  - id: git-memcite\n    name: c\n    entry: git memcite verify-all --staged\n    language: system\n", hook: "pre-commit",
			where: "local: git-memcite", note: "not 'git memcite hook pre-commit'"},
		{name: "someone else's id", cfg: "repos:\n- repo: x\n  rev: v1\n  hooks:\n  - id: ruff\n", hook: "pre-commit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root, err := yamledit.ParseMapping([]byte(tc.cfg))
			if err != nil {
				t.Fatal(err)
			}
			where, note := preCommitHookRuns(root, tc.hook)
			if where != tc.where || !strings.Contains(note, tc.note) || (tc.note == "" && note != "") {
				t.Errorf("got (%q, %q); want (%q, …%q…)", where, note, tc.where, tc.note)
			}
		})
	}
}

// TestManifestMatches keeps the table the status reads in step with
// .pre-commit-hooks.yaml, and holds the manifest to what pre-commit 3.0
// accepts: stage names of every release, and a minimum version.
func TestManifestMatches(t *testing.T) {
	b, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hs []struct {
		ID       string   `yaml:"id"`
		Entry    string   `yaml:"entry"`
		Stages   []string `yaml:"stages"`
		Language string   `yaml:"language"`
		Pass     *bool    `yaml:"pass_filenames"`
		Min      string   `yaml:"minimum_pre_commit_version"`
	}
	if err := yaml.Unmarshal(b, &hs); err != nil {
		t.Fatal(err)
	}
	// the stages pre-commit 3.0.4 accepts (pre_commit/constants.py)
	v30 := []string{"commit", "merge-commit", "prepare-commit-msg", "commit-msg", "post-commit", "manual", "post-checkout", "push", "post-merge", "post-rewrite"}
	// and those current releases accept without a deprecation warning
	current := []string{"commit-msg", "post-checkout", "post-commit", "post-merge", "post-rewrite", "pre-commit", "pre-merge-commit", "pre-push", "pre-rebase", "prepare-commit-msg", "manual"}
	seen := map[string]bool{}
	for _, h := range hs {
		m, ok := manifest[h.ID]
		if !ok {
			t.Errorf("%s is not in the manifest table", h.ID)
			continue
		}
		seen[h.ID] = true
		if h.Entry != m.entry || !reflect.DeepEqual(h.Stages, m.stages) {
			t.Errorf("%s: entry %q stages %v; table has %q %v", h.ID, h.Entry, h.Stages, m.entry, m.stages)
		}
		for _, s := range h.Stages {
			if !anyIn([]string{s}, v30) || !anyIn([]string{s}, current) {
				t.Errorf("%s: stage %q is not accepted by both pre-commit 3.0 and current releases", h.ID, s)
			}
		}
		if h.Min != "3.0.0" || h.Language != "golang" || h.Pass == nil || *h.Pass {
			t.Errorf("%s: minimum %q, language %q, pass_filenames %v", h.ID, h.Min, h.Language, h.Pass)
		}
	}
	if len(seen) != len(manifest) {
		t.Errorf("manifest has %v; table has %d ids", seen, len(manifest))
	}
}

func TestHuskyAddRemove(t *testing.T) {
	tests := []struct {
		name, src, hook, want string
		exists                bool
	}{
		{name: "new file", hook: "post-merge", want: "#!/bin/sh\n" + huskyCreated + "\ngit memcite hook post-merge \"$@\" || true\n"},
		{name: "appended", exists: true, hook: "pre-commit", src: "npx lint-staged\n", want: "npx lint-staged\n" + huskyComment + "\ngit memcite hook pre-commit\n"},
		{name: "before a final exit", exists: true, hook: "pre-commit", src: "npm test\nexit 0\n\n", want: "npm test\n" + huskyComment + "\ngit memcite hook pre-commit\nexit 0\n\n"},
		{name: "no final newline", exists: true, hook: "pre-commit", src: "npm test", want: "npm test\n" + huskyComment + "\ngit memcite hook pre-commit"},
		{name: "empty file", exists: true, hook: "pre-commit", src: "", want: huskyComment + "\ngit memcite hook pre-commit\n"},
		{name: "already runs it", exists: true, hook: "pre-commit", src: "git-memcite hook pre-commit\n", want: "git-memcite hook pre-commit\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := huskyAdd([]byte(tc.src), tc.exists, tc.hook)
			if string(got) != tc.want {
				t.Fatalf("huskyAdd: %q; want %q", got, tc.want)
			}
			back, removed, del := huskyRemove(got, tc.hook)
			switch {
			case !tc.exists:
				if !del {
					t.Errorf("a created file is not deleted")
				}
			case tc.name == "already runs it":
				if removed || string(back) != tc.src {
					t.Errorf("removed the user's own line: %q", back)
				}
			case del || string(back) != tc.src:
				t.Errorf("huskyRemove: %q (delete %v); want %q", back, del, tc.src)
			}
		})
	}
	// a created file the user added to keeps the user's lines
	src := "#!/bin/sh\n" + huskyCreated + "\ngit memcite hook pre-commit\nnpm test\n"
	if back, removed, del := huskyRemove([]byte(src), "pre-commit"); !removed || del || string(back) != "#!/bin/sh\nnpm test\n" {
		t.Errorf("got %q removed %v delete %v", back, removed, del)
	}
}

// FuzzPreCommitEdit: adding then removing our entry gives any input back
// byte for byte, or the input is refused.
func FuzzPreCommitEdit(f *testing.F) {
	for _, s := range []string{"", "repos:\n- repo: local\n  hooks: []\n", "repos:\n  -   repo: x\n      rev: y\n      hooks:\n          - id: z\n", "a: 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, added, err := preCommitAdd([]byte(src), hooks.Names, testURL, "v0.1.0", false)
		if err != nil || len(added) == 0 {
			return
		}
		root, err := yamledit.ParseMapping(out)
		if err != nil {
			t.Fatalf("invalid YAML from %q: %q", src, out)
		}
		for _, h := range added {
			if where, _ := preCommitHookRuns(root, h); where == "" {
				t.Fatalf("%s does not run after preCommitAdd(%q):\n%s", h, src, out)
			}
		}
		back, _, err := preCommitRemove(out)
		if err != nil || string(back) != src {
			t.Fatalf("round trip of %q:\n%q\ngave %q (%v)", src, out, back, err)
		}
	})
}

// TestPreCommitLocal: install --via pre-commit --local writes a "repo:
// local" entry that runs the git-memcite on PATH (no rev, no network);
// status sees it run at every hook, a second add changes nothing, and
// uninstall gives the file back byte for byte.
func TestPreCommitLocal(t *testing.T) {
	for name, src := range map[string]string{
		"empty":         "",
		"team's hooks":  "# team\nrepos:\n  - repo: local\n    hooks:\n      - id: lint\n        name: lint\n        entry: make lint\n        language: system\n",
		"no repos key":  "minimum_pre_commit_version: '3.0.0'\n",
		"indent 4/dash": "repos:\n-   repo: https://example.com/x\n    rev: v1\n    hooks:\n    -   id: x\n",
	} {
		t.Run(name, func(t *testing.T) {
			out, added, err := preCommitAdd([]byte(src), hooks.Names, testURL, "", true)
			if err != nil {
				t.Fatal(err)
			}
			if len(added) != len(hooks.Names) || !strings.Contains(string(out), "repo: local") || strings.Contains(string(out), "rev:") && !strings.Contains(src, "rev:") {
				t.Fatalf("added %v:\n%s", added, out)
			}
			if !strings.Contains(string(out), "entry: git-memcite hook pre-commit") || !strings.Contains(string(out), "language: system") {
				t.Errorf("not a local system hook:\n%s", out)
			}
			root, err := yamledit.ParseMapping(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hooks.Names {
				if where, _ := preCommitHookRuns(root, h); where == "" {
					t.Errorf("%s does not run:\n%s", h, out)
				}
			}
			if again, added, err := preCommitAdd(out, hooks.Names, testURL, "", true); err != nil || !bytes.Equal(again, out) || len(added) != 0 {
				t.Errorf("second add changed the file (%v, %v)", err, added)
			}
			back, ids, err := preCommitRemove(out)
			if err != nil || string(back) != src || len(ids) == 0 {
				t.Errorf("remove: %v %v\n%q\nwant\n%q", ids, err, back, src)
			}
		})
	}
}
