package clidoc

import (
	"io"
	"strings"
	"testing"
)

// The scripts and the page of the real command line are pinned by the
// golden files of cmd/git-memcite (TestManPage, TestCompletionScripts);
// these tests check the model's handling on a small one.

var model = Model{
	Globals: []Flag{{Name: "quiet", Short: 'q', Help: "Print less. More.", Bool: true}},
	Commands: []Command{
		{Name: "verify", Help: "Verify memories.", Args: []Arg{{Name: "memory", Memory: true}},
			Flags: []Flag{{Name: "format", Help: "Report format.", Place: "FORMAT", Values: []string{"text", "json"}}}},
		{Name: "graph", Help: "Graph.", Subs: []string{"find-roots"}},
		{Name: "graph find-roots", Help: "Roots.", Detail: "Exit table."},
		{Name: "health", Help: "Health.", Detail: "Health in detail."},
	},
}

func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		var b strings.Builder
		if err := Completion(&b, sh, model); err != nil {
			t.Fatalf("%s: %v", sh, err)
		}
		s := b.String()
		for _, want := range []string{"verify", "graph", "find-roots", "__complete memories", "json"} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: no %q in the script", sh, want)
			}
		}
	}
	if err := Completion(io.Discard, "tcsh", model); err == nil {
		t.Error("no error for an unknown shell")
	}
	if got := model.TopNames(); strings.Join(got, " ") != "verify graph health" {
		t.Errorf("TopNames = %v", got)
	}
}

func TestMan(t *testing.T) {
	var b strings.Builder
	if err := Man(&b, model, "1.2.3", "Exit table."); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{`"git-memcite 1.2.3"`, `.SS "git memcite graph find\-roots"`, `\fB\-q\fR, \fB\-\-quiet\fR`, `\fB\-\-format\fR \fIFORMAT\fR`} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	if strings.Contains(s, "Exit table.") || !strings.Contains(s, "Health in detail.") {
		t.Error("a detail equal to skipDetail is printed, or another one is not")
	}
}
