package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/findings"
)

// TestPrecedence: flags > env > git config > file > defaults, for every
// key and every combination of layers that set it.
func TestPrecedence(t *testing.T) {
	file := &File{Dirs: []string{"file-dir"}, Format: "sarif", FailOn: "warning", Color: "never", Ignore: []string{"file-*.md"}}
	env := map[string]string{"MEMCITE_DIR": "env-a:env-b", "MEMCITE_FORMAT": "json", "MEMCITE_FAIL_ON": "note", "MEMCITE_COLOR": "always", "MEMCITE_IGNORE": "env-*.md"}
	git := map[string][]string{"memcite.dir": {"git-a", "git-b"}, "memcite.format": {"text", "github"}, "memcite.failOn": {"never"}, "memcite.color": {"auto"}, "memcite.ignore": {"git-*.md"}}
	flags := map[string][]string{"dirs": {"flag-dir"}, "format": {"gitlab"}, "fail-on": {"error"}, "color": {"never"}}
	type want struct{ value, origin string }
	for _, tc := range []struct {
		name                    string
		flag, env, git, useFile bool
		want                    map[string]want
	}{
		{"defaults", false, false, false, false, map[string]want{
			"dirs": {".serena/memories", "default"}, "format": {"text", "default"}, "fail-on": {"error", "default"},
			"color": {"auto", "default"}, "ignore": {"", "default"}}},
		{"file", false, false, false, true, map[string]want{
			"dirs": {"file-dir", FileName}, "format": {"sarif", FileName}, "fail-on": {"warning", FileName},
			"color": {"never", FileName}, "ignore": {"file-*.md", FileName}}},
		{"git over file", false, false, true, true, map[string]want{
			"dirs": {"git-a, git-b", "git config memcite.dir"}, "format": {"github", "git config memcite.format"},
			"fail-on": {"never", "git config memcite.failOn"}, "color": {"auto", "git config memcite.color"},
			"ignore": {"git-*.md", "git config memcite.ignore"}}},
		{"env over git", false, true, true, true, map[string]want{
			"dirs": {"env-a, env-b", "env MEMCITE_DIR"}, "format": {"json", "env MEMCITE_FORMAT"},
			"fail-on": {"note", "env MEMCITE_FAIL_ON"}, "color": {"always", "env MEMCITE_COLOR"},
			"ignore": {"env-*.md", "env MEMCITE_IGNORE"}}},
		{"flags over all", true, true, true, true, map[string]want{
			"dirs": {"flag-dir", "flag --dir"}, "format": {"gitlab", "flag --format"},
			"fail-on": {"error", "flag --fail-on"}, "color": {"never", "flag --color"},
			"ignore": {"env-*.md", "env MEMCITE_IGNORE"}}}, // ignore has no flag
		{"env without git", false, true, false, false, map[string]want{
			"dirs": {"env-a, env-b", "env MEMCITE_DIR"}, "format": {"json", "env MEMCITE_FORMAT"}}},
		{"flag over default", true, false, false, false, map[string]want{
			"format": {"gitlab", "flag --format"}, "ignore": {"", "default"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l Layers
			if tc.flag {
				l.Flags = flags
			}
			if tc.env {
				l.Getenv = func(k string) string { return env[k] }
			}
			if tc.git {
				l.Git = func(k string) ([]string, error) { return git[k], nil }
			}
			if tc.useFile {
				l.File, l.FileName = file, FileName
			}
			c, err := Resolve(l)
			if err != nil {
				t.Fatal(err)
			}
			for k, w := range tc.want {
				v := c.Get(k)
				if v.String() != w.value || v.Origin != w.origin {
					t.Errorf("%s = %q from %q, want %q from %q", k, v.String(), v.Origin, w.value, w.origin)
				}
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    Layers
		want string
	}{
		{"bad env format", Layers{Getenv: func(k string) string {
			if k == "MEMCITE_FORMAT" {
				return "xml"
			}
			return ""
		}}, `env MEMCITE_FORMAT: format must be one of text, json, github, sarif, gitlab, got "xml"`},
		{"bad git colour", Layers{Git: func(k string) ([]string, error) {
			if k == "memcite.color" {
				return []string{"sometimes"}, nil
			}
			return nil, nil
		}}, `git config memcite.color: color must be one of auto, always, never, got "sometimes"`},
		{"git fails", Layers{Git: func(string) ([]string, error) { return nil, errors.New("boom") }}, "boom"},
		{"bad file level", Layers{File: &File{Severity: map[string]string{"snippet-mismatch": "fatal"}}, FileName: FileName},
			`.memcite.yaml: severity of snippet-mismatch: unknown level "fatal"`},
		{"unknown rule", Layers{File: &File{Severity: map[string]string{"nope": "error"}}, FileName: FileName},
			".memcite.yaml: severity: unknown rule nope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Resolve(tc.l)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParseFile(t *testing.T) {
	f, err := ParseFile(FileName, []byte("dirs: [a, b]\nignore: ['drafts/**']\nformat: json\nfail_on: warning\nseverity:\n  snippet-mismatch: warning\n  memcite/memory-warning: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := &File{Dirs: []string{"a", "b"}, Ignore: []string{"drafts/**"}, Format: "json", FailOn: "warning",
		Severity: map[string]string{"snippet-mismatch": "warning", "memcite/memory-warning": "off"}}
	if !reflect.DeepEqual(f, want) {
		t.Fatalf("got %+v, want %+v", f, want)
	}
	c, err := Resolve(Layers{File: f, FileName: FileName})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Levels(); !reflect.DeepEqual(got, map[string]findings.Level{findings.RuleSnippetMismatch: findings.Warning, findings.RuleMemoryWarning: findings.Off}) {
		t.Errorf("levels %v", got)
	}
	if c.FailOn() != findings.Warning {
		t.Errorf("fail-on %v", c.FailOn())
	}
	if _, err := ParseFile(FileName, []byte("dir: [a]\n")); err == nil || !strings.Contains(err.Error(), "field dir not found") {
		t.Errorf("a misspelt key is not an error: %v", err)
	}
	if f, err := ParseFile(FileName, nil); err != nil || f.Dirs != nil {
		t.Errorf("empty file: %+v, %v", f, err)
	}
}

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		glob, path string
		want       bool
	}{
		{"*.md", ".serena/memories/a.md", true},
		{"draft-*", ".serena/memories/x/draft-1.md", true},
		{".serena/memories/*.md", ".serena/memories/a.md", true},
		{".serena/memories/*.md", ".serena/memories/x/a.md", false},
		{".serena/memories/**/*.md", ".serena/memories/x/y/a.md", true},
		{".serena/memories/**/*.md", ".serena/memories/a.md", true},
		{"**/archive/**", ".serena/memories/archive/old.md", true},
		{"a?.md", "m/ab.md", true},
		{"a[0-9].md", "m/a7.md", true},
		{"a[!0-9].md", "m/a7.md", false},
		{"a.md", "m/b.md", false},
	} {
		if got := GlobMatch(tc.glob, tc.path); got != tc.want {
			t.Errorf("GlobMatch(%q, %q) = %v, want %v", tc.glob, tc.path, got, tc.want)
		}
	}
}

func TestFailOn(t *testing.T) {
	for in, want := range map[string]findings.Level{"error": findings.Error, "warning": findings.Warning, "note": findings.Note, "never": findings.Off} {
		c, err := Resolve(Layers{Flags: map[string][]string{"fail-on": {in}}})
		if err != nil {
			t.Fatal(err)
		}
		if c.FailOn() != want {
			t.Errorf("fail-on %s: %v, want %v", in, c.FailOn(), want)
		}
	}
}
