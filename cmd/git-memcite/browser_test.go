package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// chromium finds a Chromium binary (Debian's package installs chromium).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH (scripts/test-browser.sh installs it)")
	return ""
}

// dumpDOM opens url in headless Chromium and returns the DOM after the
// page's scripts ran.
func dumpDOM(t *testing.T, bin, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=2000", "--dump-dom", url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return stdout.String()
}

// TestHealthHTMLInBrowser renders `health --format html` for a real
// repository and opens it in headless Chromium: the page's script must run
// (it stamps the row count on <body>), the table must hold one row per
// memory, the chart one bar per folder with cited memories (a note for the
// others), and a click on a header must sort.
func TestHealthHTMLInBrowser(t *testing.T) {
	t.Parallel() // its own directories, servers and processes
	longtest.Skip(t, "a headless browser")
	bin := chromium(t)
	dir := t.TempDir()
	files := map[string]string{
		"src/a.go":                           "package a\n\nfunc A() {}\n",
		".serena/memories/ok.md":             "---\ncitations:\n  - path: src/a.go\n    line: 3\n    snippet: func A\n---\n",
		".serena/memories/api/stale.md":      "---\ncitations:\n  - path: src/a.go\n    line: 30\n  - path: src/a.go\n---\n",
		".serena/memories/api/gone.md":       "---\ncitations: [src/gone.go:1]\nlinks:\n  - related: nowhere\n---\n",
		".serena/memories/notes/<script>.md": "---\nsubject: a name that must stay text\n---\n",
	}
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	report := filepath.Join(dir, "report.html")
	var stderr bytes.Buffer
	if code := run([]string{"health", "--repo-root", dir, "--format", "html", "--output", report}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("health exited %d: %s", code, stderr.String())
	}
	dom := dumpDOM(t, bin, "file://"+report)
	if !strings.Contains(dom, `data-ready="4 rows"`) {
		t.Fatalf("the page's script did not stamp 4 rows:\n%s", dom)
	}
	if n := len(regexp.MustCompile(`<rect class="bar"`).FindAllString(dom, -1)); n != 2 {
		t.Errorf("chart has %d bars; want 2 (api and ., not notes: no cited memory)", n)
	}
	if !strings.Contains(dom, "Not charted (see the Folders table): 1 folder without cited memories.") {
		t.Errorf("no note for the folder left out of the chart")
	}
	if !strings.Contains(dom, `data-first="api/gone"`) {
		t.Errorf("worst memory is not first: %s", regexp.MustCompile(`data-first="[^"]*"`).FindString(dom))
	}
	if strings.Contains(dom, "<script>.md") || !strings.Contains(dom, "notes/&lt;script&gt;") {
		t.Errorf("a memory name was not escaped")
	}
	// #sort=5 clicks the Confidence header once: ascending, so a 0.00 first;
	// #sort=0 sorts by name.
	if dom := dumpDOM(t, bin, "file://"+report+"#sort=0"); !strings.Contains(dom, `data-first="api/gone"`) {
		t.Errorf("sorting by memory did not put api/gone first: %s", regexp.MustCompile(`data-first="[^"]*"`).FindString(dom))
	}
	if dom := dumpDOM(t, bin, "file://"+report+"#sort=4"); !strings.Contains(dom, `data-first="notes/&lt;script&gt;"`) {
		t.Errorf("sorting by total citations did not put the uncited memory first: %s", regexp.MustCompile(`data-first="[^"]*"`).FindString(dom))
	}
}
