package hookinstall

import (
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/yamledit"
)

// husky 9 sets core.hooksPath to .husky/_, fills it with one stub per hook
// that runs its dispatcher .husky/_/h, and the dispatcher runs the user's
// script .husky/<hook> (found by the stub's name) with 'sh -e'. Husky 5 to
// 8 pointed core.hooksPath at .husky itself. Either way the user's
// scripts are where git-memcite's lines go: husky regenerates .husky/_.

// huskyScripts returns the directory of the user's husky scripts: the
// parent of a hooks directory named "_", else the hooks directory.
func huskyScripts(r Repo) string {
	if filepath.Base(r.HooksDir) == "_" {
		return filepath.Dir(r.HooksDir)
	}
	return r.HooksDir
}

// Lines install writes into husky scripts.
const (
	huskyComment = "# git-memcite: check code citations ('git memcite uninstall' removes these lines)"
	huskyCreated = "# git-memcite: created by 'git memcite install' ('git memcite uninstall' deletes this file)"
	huskyShebang = "#!/bin/sh"
)

// huskyAdd returns a husky script that runs git-memcite for the hook:
// the lines appended to an existing script (before a final exit or exec,
// which would skip them), or a new script. changed is false when the
// script already runs git-memcite for the hook.
func huskyAdd(src []byte, exists bool, hook string) (out []byte, changed bool) {
	line := cliLine(hook, "git memcite")
	if !exists {
		return []byte(huskyShebang + "\n" + huskyCreated + "\n" + line + "\n"), true
	}
	if where, _ := huskyScriptRuns(src, hook); where != "" {
		return src, false
	}
	t := yamledit.SplitText(src)
	at := len(t.Lines)
	for i := len(t.Lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(t.Lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if l == "exit" || strings.HasPrefix(l, "exit ") || strings.HasPrefix(l, "exec ") {
			at = i
		}
		break
	}
	t.Insert(at, []string{huskyComment, line})
	return t.Bytes(), true
}

// huskyRemove undoes huskyAdd: it removes our lines, and deleteFile says
// that nothing but what install created is left.
func huskyRemove(src []byte, hook string) (out []byte, removed, deleteFile bool) {
	line := cliLine(hook, "git memcite")
	t := yamledit.SplitText(src)
	if len(t.Lines) >= 3 && yamledit.TrimEOL(t.Lines[0]) == huskyShebang && yamledit.TrimEOL(t.Lines[1]) == huskyCreated {
		if len(t.Lines) == 3 && yamledit.TrimEOL(t.Lines[2]) == line {
			return nil, true, true
		}
		if i := t.Find([]string{line}, 2); i >= 0 {
			t.Remove(i, i+1)
			t.Remove(1, 2)
			return t.Bytes(), true, false
		}
		return src, false, false
	}
	if i := t.Find([]string{huskyComment, line}, 0); i >= 0 {
		t.Remove(i, i+2)
		return t.Bytes(), true, false
	}
	return src, false, false
}

// huskyScriptRuns reports whether a shell script has an active line that
// runs git-memcite for the hook, and a remark.
func huskyScriptRuns(script []byte, hook string) (where, note string) {
	for _, l := range strings.Split(string(script), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if ok, n := entryRunsFor(l, hook); ok {
			return l, n
		}
	}
	return "", ""
}
