package hookinstall

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/hooks"
	"github.com/git-memcite/git-memcite/internal/yamledit"
)

// preCommitConfigs are the pre-commit framework's configuration files.
var preCommitConfigs = []string{".pre-commit-config.yaml", ".pre-commit-config.yml"}

// preCommitCreatedHeader starts a .pre-commit-config.yaml that install
// created.
const preCommitCreatedHeader = "# pre-commit configuration, created by 'git memcite install' ('git memcite uninstall' deletes it)"

// preCommitID is the id in .pre-commit-hooks.yaml that runs git-memcite
// at a hook.
func preCommitID(hook string) string {
	if !hooks.Pre(hook) {
		return "memcite-" + hook
	}
	return "memcite"
}

// manifestHook is what .pre-commit-hooks.yaml says about one of our ids:
// the stages it runs at when the configuration names none (nil: the
// configuration's default_stages) and the command.
type manifestHook struct {
	stages []string
	entry  string
}

// manifest mirrors .pre-commit-hooks.yaml (TestManifestMatches keeps them
// in step).
var manifest = map[string]manifestHook{
	"memcite":              {entry: "git-memcite hook pre-commit"},
	"memcite-all":          {stages: []string{"manual"}, entry: "git-memcite verify-all --quiet"},
	"memcite-post-merge":   {stages: []string{"post-merge"}, entry: "git-memcite hook post-merge"},
	"memcite-post-rewrite": {stages: []string{"post-rewrite"}, entry: "git-memcite hook post-rewrite"},
}

// stageNames are the names a stage has in pre-commit configurations:
// pre-commit 3.2 renamed commit, merge-commit and push.
func stageNames(hook string) []string {
	switch hook {
	case "pre-commit":
		return []string{"pre-commit", "commit"}
	case "pre-merge-commit":
		return []string{"pre-merge-commit", "merge-commit"}
	case "pre-push":
		return []string{"pre-push", "push"}
	}
	return []string{hook}
}

// localHooks are the lines, after "id:", of the "repo: local" hooks
// install --via pre-commit --local writes: they run the git-memcite on
// PATH (language: system), as .pre-commit-hooks.yaml's hooks run the one
// pre-commit builds.
var localHooks = map[string][]string{
	"memcite": {"name: memory-file citations", "entry: git-memcite hook pre-commit", "language: system",
		"pass_filenames: false", "always_run: true", "require_serial: true"},
	"memcite-post-merge": {"name: citations a merge made stale", "entry: git-memcite hook post-merge", "language: system",
		"pass_filenames: false", "always_run: true", "verbose: true", "stages: [post-merge]"},
	"memcite-post-rewrite": {"name: citations a rebase made stale", "entry: git-memcite hook post-rewrite", "language: system",
		"pass_filenames: false", "always_run: true", "verbose: true", "stages: [post-rewrite]"},
}

// localHookKeys are the keys a local hook of ours has.
var localHookKeys = []string{"id", "name", "entry", "language", "pass_filenames", "always_run", "require_serial", "verbose", "stages"}

// itemLayout is where the parts of a repos entry go: the column of its
// "-", of its keys, of the "-" of its hooks and of their keys.
type itemLayout struct{ dash, key, hookDash, hookKey int }

// preCommitItem is the repository entry install adds to repos: url at
// rev, or with local a "repo: local" entry (localHooks).
func preCommitItem(l itemLayout, url, rev string, ids []string, local bool) []string {
	if local {
		ls := []string{yamledit.Pad(l.dash) + "-" + yamledit.Pad(l.key-l.dash-1) + "repo: local", yamledit.Pad(l.key) + "hooks:"}
		for _, id := range ids {
			ls = append(ls, yamledit.Pad(l.hookDash)+"-"+yamledit.Pad(l.hookKey-l.hookDash-1)+"id: "+id)
			for _, kv := range localHooks[id] {
				ls = append(ls, yamledit.Pad(l.hookKey)+kv)
			}
		}
		return ls
	}
	ls := []string{
		yamledit.Pad(l.dash) + "-" + yamledit.Pad(l.key-l.dash-1) + "repo: " + url,
		yamledit.Pad(l.key) + "rev: " + rev,
		yamledit.Pad(l.key) + "hooks:",
	}
	for _, id := range ids {
		ls = append(ls, yamledit.Pad(l.hookDash)+"-"+yamledit.Pad(l.hookKey-l.hookDash-1)+"id: "+id)
	}
	return ls
}

// layoutOf copies the layout of the first entry of repos.
func layoutOf(t yamledit.Text, first *yaml.Node) (itemLayout, bool) {
	_, dash, ok := t.ItemStart(first)
	if !ok || first.Kind != yaml.MappingNode || len(first.Content) == 0 {
		return itemLayout{}, false
	}
	l := itemLayout{dash: dash, key: first.Content[0].Column - 1}
	if l.key <= l.dash {
		return itemLayout{}, false
	}
	l.hookDash, l.hookKey = l.key+2, l.key+4
	if _, hv := yamledit.Lookup(first, "hooks"); yamledit.IsBlock(hv, yaml.SequenceNode) && yamledit.IsBlock(hv.Content[0], yaml.MappingNode) {
		if _, hd, ok := t.ItemStart(hv.Content[0]); ok && hd >= l.key && hv.Content[0].Content[0].Column-1 > hd {
			l.hookDash, l.hookKey = hd, hv.Content[0].Content[0].Column-1
		}
	}
	return l, true
}

// preCommitAdd adds a repository entry for git-memcite with the ids the
// named hooks need, at the end of the repos list (after "repos:" added
// at the end of the file when there is none). Hooks for which the
// configuration already runs git-memcite are left alone. It returns the
// new content and the hooks added.
func preCommitAdd(src []byte, hooks []string, url, rev string, local bool) ([]byte, []string, error) {
	root, err := yamledit.ParseMapping(src)
	if err != nil {
		return nil, nil, err
	}
	var ids, added []string
	for _, h := range hooks {
		if where, _ := preCommitHookRuns(root, h); where != "" {
			continue
		}
		added = append(added, h)
		if id := preCommitID(h); !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return src, nil, nil
	}
	t := yamledit.SplitText(src)
	k, v := yamledit.Lookup(root, "repos")
	switch {
	case k == nil:
		col := 0
		if root != nil && len(root.Content) > 0 {
			col = root.Content[0].Column - 1
		}
		d := col + t.UnitIndent()
		t.Insert(len(t.Lines), append([]string{yamledit.Pad(col) + "repos:"}, preCommitItem(itemLayout{d, d + 2, d + 4, d + 6}, url, rev, ids, local)...))
	case yamledit.IsBlock(v, yaml.SequenceNode):
		l, ok := layoutOf(t, v.Content[0])
		if !ok {
			return nil, nil, fmt.Errorf("repos: %w", yamledit.ErrUnsupported)
		}
		t.Insert(t.InsertionEnd(k.Line-1, k.Column-1, true), preCommitItem(l, url, rev, ids, local))
	default:
		return nil, nil, fmt.Errorf("repos: %w", yamledit.ErrUnsupported)
	}
	out := t.Bytes()
	if err := yamledit.SameMeaning(src, out, stripPreCommit); err != nil {
		return nil, nil, err
	}
	if back, _, err := preCommitRemove(out); err != nil || !bytes.Equal(back, src) {
		return nil, nil, fmt.Errorf("uninstall could not undo the edit: %w", yamledit.ErrUnsupported)
	}
	return out, added, nil
}

// preCommitRemove removes every repository entry that holds nothing but
// our ids (what preCommitAdd writes, whatever its repo and rev became),
// and "repos:" when nothing is left in it. It returns the ids removed.
func preCommitRemove(src []byte) ([]byte, []string, error) {
	t := yamledit.SplitText(src)
	var removed []string
	for {
		root, err := yamledit.ParseMapping(t.Bytes())
		if err != nil {
			return nil, nil, err
		}
		k, v := yamledit.Lookup(root, "repos")
		if !yamledit.IsBlock(v, yaml.SequenceNode) {
			return t.Bytes(), removed, nil
		}
		found := false
		for _, item := range v.Content {
			ids, ok := ourPreCommitItem(item)
			if !ok {
				continue
			}
			line, dash, ok := t.ItemStart(item)
			if !ok {
				continue
			}
			if len(v.Content) == 1 {
				t.Remove(k.Line-1, t.RemovalEnd(k.Line-1, k.Column-1, true))
			} else {
				t.Remove(line, t.RemovalEnd(line, dash, false))
			}
			removed = append(removed, ids...)
			found = true
			break
		}
		if !found {
			return t.Bytes(), removed, nil
		}
	}
}

// ourPreCommitItem reports whether a repos entry is one install adds: keys
// repo, rev and hooks only, and hooks that are nothing but our ids; or a
// "repo: local" entry of our local hooks only (localHooks).
func ourPreCommitItem(item *yaml.Node) ([]string, bool) {
	if repo, _ := yamledit.Scalar(item, "repo"); repo == "local" {
		return ourLocalItem(item)
	}
	for _, key := range yamledit.Keys(item) {
		if key != "repo" && key != "rev" && key != "hooks" {
			return nil, false
		}
	}
	if repo, _ := yamledit.Scalar(item, "repo"); repo == "meta" {
		return nil, false
	}
	_, hv := yamledit.Lookup(item, "hooks")
	if !yamledit.IsBlock(hv, yaml.SequenceNode) {
		return nil, false
	}
	var ids []string
	for _, h := range hv.Content {
		id, _ := yamledit.Scalar(h, "id")
		if _, ours := manifest[id]; !ours || len(h.Content) != 2 {
			return nil, false
		}
		ids = append(ids, id)
	}
	return ids, true
}

// ourLocalItem reports whether a "repo: local" entry holds nothing but
// the hooks install --local writes: our ids, running our entry with
// language system, with no key of their own.
func ourLocalItem(item *yaml.Node) ([]string, bool) {
	for _, key := range yamledit.Keys(item) {
		if key != "repo" && key != "hooks" {
			return nil, false
		}
	}
	_, hv := yamledit.Lookup(item, "hooks")
	if !yamledit.IsBlock(hv, yaml.SequenceNode) {
		return nil, false
	}
	var ids []string
	for _, h := range hv.Content {
		id, _ := yamledit.Scalar(h, "id")
		entry, _ := yamledit.Scalar(h, "entry")
		lang, _ := yamledit.Scalar(h, "language")
		m, ours := manifest[id]
		if !ours || entry != m.entry || lang != "system" {
			return nil, false
		}
		for _, k := range yamledit.Keys(h) {
			if !slices.Contains(localHookKeys, k) {
				return nil, false
			}
		}
		ids = append(ids, id)
	}
	return ids, true
}

// stripPreCommit takes the entries preCommitAdd adds out of a decoded
// configuration, and "repos" when nothing is left.
func stripPreCommit(m map[string]any) {
	repos, ok := m["repos"].([]any)
	if !ok {
		return
	}
	var kept []any
	for _, r := range repos {
		if rm, ok := r.(map[string]any); ok && ourDecodedItem(rm) {
			continue
		}
		kept = append(kept, r)
	}
	if len(kept) == 0 {
		delete(m, "repos")
		return
	}
	m["repos"] = kept
}

func ourDecodedItem(rm map[string]any) bool {
	if rm["repo"] == "local" {
		return ourDecodedLocal(rm)
	}
	for k := range rm {
		if k != "repo" && k != "rev" && k != "hooks" {
			return false
		}
	}
	hs, ok := rm["hooks"].([]any)
	if !ok || len(hs) == 0 || rm["repo"] == "local" || rm["repo"] == "meta" {
		return false
	}
	for _, h := range hs {
		hm, ok := h.(map[string]any)
		if !ok || len(hm) != 1 {
			return false
		}
		id, _ := hm["id"].(string)
		if _, ours := manifest[id]; !ours {
			return false
		}
	}
	return true
}

// ourDecodedLocal is ourLocalItem for a decoded entry.
func ourDecodedLocal(rm map[string]any) bool {
	for k := range rm {
		if k != "repo" && k != "hooks" {
			return false
		}
	}
	hs, ok := rm["hooks"].([]any)
	if !ok || len(hs) == 0 {
		return false
	}
	for _, h := range hs {
		hm, ok := h.(map[string]any)
		if !ok {
			return false
		}
		id, _ := hm["id"].(string)
		m, ours := manifest[id]
		if !ours || hm["entry"] != m.entry || hm["language"] != "system" {
			return false
		}
		for k := range hm {
			if !slices.Contains(localHookKeys, k) {
				return false
			}
		}
	}
	return true
}

// preCommitHookRuns looks for a hook of the configuration that runs
// git-memcite when git runs the named hook: one of our ids from any
// repository (a fork or a local copy too) or a local hook whose entry
// runs git-memcite, at a stage matching the hook. It returns what runs it
// ("memcite", "local: my-check") or "", and a remark.
func preCommitHookRuns(root *yaml.Node, hook string) (where, note string) {
	defaults := stagesOf(root, "default_stages")
	_, repos := yamledit.Lookup(root, "repos")
	if repos == nil || repos.Kind != yaml.SequenceNode {
		return "", ""
	}
	for _, r := range repos.Content {
		repo, _ := yamledit.Scalar(r, "repo")
		_, hs := yamledit.Lookup(r, "hooks")
		if hs == nil || hs.Kind != yaml.SequenceNode || repo == "meta" {
			continue
		}
		for _, h := range hs.Content {
			id, _ := yamledit.Scalar(h, "id")
			entry, hasEntry := yamledit.Scalar(h, "entry")
			stages := stagesOf(h, "stages")
			name := id
			if repo == "local" {
				name = "local: " + id
			} else {
				m, ours := manifest[id]
				if !ours {
					continue
				}
				if !hasEntry {
					entry = m.entry
				}
				if stages == nil {
					stages = m.stages
				}
			}
			if stages == nil {
				stages = defaults
			}
			ok, n := entryRunsFor(entry, hook)
			if !ok || (stages != nil && !anyIn(stageNames(hook), stages)) {
				continue
			}
			return name, n
		}
	}
	return "", ""
}

// stagesOf returns a list of stage names, nil when the key is absent.
func stagesOf(m *yaml.Node, key string) []string {
	_, v := yamledit.Lookup(m, key)
	if v == nil || v.Kind != yaml.SequenceNode {
		return nil
	}
	out := []string{}
	for _, s := range v.Content {
		out = append(out, s.Value)
	}
	return out
}

func anyIn(a, b []string) bool {
	for _, s := range a {
		if slices.Contains(b, s) {
			return true
		}
	}
	return false
}

// entryRunsFor reports whether a command runs git-memcite for the named
// hook, with a remark when it runs it in a way that bypasses the hook
// policy.
func entryRunsFor(cmd, hook string) (bool, string) {
	var want []string
	if hooks.Pre(hook) {
		want = []string{"hook pre-commit", "hook pre-merge-commit"}
	} else {
		want = []string{"hook " + hook}
	}
	for _, prog := range []string{"git memcite ", "git-memcite "} {
		for _, w := range want {
			if strings.Contains(cmd, prog+w) {
				return true, ""
			}
		}
	}
	if hooks.Pre(hook) && strings.Contains(cmd, "memcite verify") {
		return true, fmt.Sprintf("it runs '%s', not 'git memcite hook %s': the hook policy, SKIP=memcite and MEMCITE=0 do not apply", strings.TrimSpace(cmd), hook)
	}
	return false, ""
}

// preCommitConfigOf returns the configuration file a hook script written
// by pre-commit names (--config=…), relative to the worktree root.
func preCommitConfigOf(script []byte) string {
	for _, f := range strings.Fields(string(script)) {
		f = strings.Trim(f, `()"'`)
		if c, ok := strings.CutPrefix(f, "--config="); ok {
			return filepath.FromSlash(c)
		}
	}
	return preCommitConfigs[0]
}
