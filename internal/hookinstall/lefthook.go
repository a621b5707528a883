package hookinstall

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/hooks"
	"github.com/git-memcite/git-memcite/internal/regfile"
	"github.com/git-memcite/git-memcite/internal/yamledit"
)

// lefthook reads its main configuration from the first of these files
// that exists, then merges the first local one over it.
var (
	lefthookMain  = lefthookNames("lefthook", ".lefthook", ".config/lefthook")
	lefthookLocal = lefthookNames("lefthook-local", ".lefthook-local", ".config/lefthook-local")
)

func lefthookNames(bases ...string) []string {
	var out []string
	for _, b := range bases {
		for _, ext := range []string{".yml", ".yaml", ".json", ".toml"} {
			out = append(out, b+ext)
		}
	}
	return out
}

// firstExisting returns the first of names (relative to top) that exists.
func firstExisting(top string, names []string) string {
	for _, n := range names {
		if exists(filepath.Join(top, n)) {
			return n
		}
	}
	return ""
}

// lefthookCreatedHeader starts a lefthook.yml that install created.
const lefthookCreatedHeader = "# lefthook configuration, created by 'git memcite install' ('git memcite uninstall' deletes it)"

// lefthookJob returns the lines of our command for a hook, indented by
// ind, for a commands mapping (name on the first line) or a jobs sequence
// (a "- name:" item).
func lefthookJob(hook string, ind, unit int, item bool) []string {
	run := "git memcite hook " + hook
	if !hooks.Pre(hook) {
		run += " {1}"
	}
	var ls []string
	if item {
		ls = []string{yamledit.Pad(ind) + "- name: memcite", yamledit.Pad(ind+2) + "run: " + run}
		if hook == "post-rewrite" {
			ls = append(ls, yamledit.Pad(ind+2)+"use_stdin: true")
		}
		return ls
	}
	ls = []string{yamledit.Pad(ind) + "memcite:", yamledit.Pad(ind+unit) + "run: " + run}
	if hook == "post-rewrite" {
		ls = append(ls, yamledit.Pad(ind+unit)+"use_stdin: true")
	}
	return ls
}

// lefthookAdd adds our command to each named hook of a lefthook YAML
// configuration that does not run git-memcite yet: into the hook's
// commands mapping, else its jobs sequence, else a new commands mapping,
// and a new hook at the end of the file for a hook not configured. It
// returns the new content and the hooks it added.
func lefthookAdd(src []byte, hooks []string) ([]byte, []string, error) {
	t := yamledit.SplitText(src)
	var added []string
	for _, h := range hooks {
		root, err := yamledit.ParseMapping(t.Bytes())
		if err != nil {
			return nil, nil, err
		}
		if runs, _ := lefthookHookRuns(root, nil, h); runs != "" {
			continue
		}
		unit := t.UnitIndent()
		k, v := yamledit.Lookup(root, h)
		switch {
		case k == nil:
			col := 0
			if root != nil && len(root.Content) > 0 {
				col = root.Content[0].Column - 1
			}
			t.Insert(len(t.Lines), append([]string{yamledit.Pad(col) + h + ":", yamledit.Pad(col+unit) + "commands:"}, lefthookJob(h, col+2*unit, unit, false)...))
		case yamledit.IsBlock(v, yaml.MappingNode):
			if ck, cv := yamledit.Lookup(v, "commands"); ck != nil {
				if !yamledit.IsBlock(cv, yaml.MappingNode) {
					return nil, nil, fmt.Errorf("%s.commands: %w", h, yamledit.ErrUnsupported)
				}
				col := cv.Content[0].Column - 1
				t.Insert(t.InsertionEnd(ck.Line-1, ck.Column-1, false), lefthookJob(h, col, col-(ck.Column-1), false))
			} else if jk, jv := yamledit.Lookup(v, "jobs"); jk != nil {
				if !yamledit.IsBlock(jv, yaml.SequenceNode) {
					return nil, nil, fmt.Errorf("%s.jobs: %w", h, yamledit.ErrUnsupported)
				}
				_, dash, ok := t.ItemStart(jv.Content[0])
				if !ok {
					return nil, nil, fmt.Errorf("%s.jobs: %w", h, yamledit.ErrUnsupported)
				}
				t.Insert(t.InsertionEnd(jk.Line-1, jk.Column-1, true), lefthookJob(h, dash, unit, true))
			} else {
				col := v.Content[0].Column - 1
				t.Insert(t.InsertionEnd(k.Line-1, k.Column-1, false), append([]string{yamledit.Pad(col) + "commands:"}, lefthookJob(h, col+unit, unit, false)...))
			}
		default:
			return nil, nil, fmt.Errorf("%s: %w", h, yamledit.ErrUnsupported)
		}
		added = append(added, h)
	}
	out := t.Bytes()
	if len(added) == 0 {
		return out, nil, nil
	}
	if err := yamledit.SameMeaning(src, out, func(m map[string]any) { stripLefthook(m, added) }); err != nil {
		return nil, nil, err
	}
	root, err := yamledit.ParseMapping(out)
	if err != nil {
		return nil, nil, err
	}
	for _, h := range added {
		if where, _ := lefthookHookRuns(root, nil, h); where == "" {
			return nil, nil, fmt.Errorf("%s: the edit would not run git-memcite: %w", h, yamledit.ErrUnsupported)
		}
	}
	if back, _, _, err := lefthookRemove(out); err != nil || !bytes.Equal(back, src) {
		return nil, nil, fmt.Errorf("uninstall could not undo the edit: %w", yamledit.ErrUnsupported)
	}
	return out, added, nil
}

// stripLefthook takes our commands out of a decoded configuration, with
// the commands mappings and hooks that held nothing else.
func stripLefthook(m map[string]any, hooks []string) {
	for _, h := range hooks {
		hm, ok := m[h].(map[string]any)
		if !ok {
			continue
		}
		if cm, ok := hm["commands"].(map[string]any); ok {
			delete(cm, "memcite")
			if len(cm) == 0 {
				delete(hm, "commands")
			}
		}
		if js, ok := hm["jobs"].([]any); ok {
			for i, j := range js {
				if jm, ok := j.(map[string]any); ok && jm["name"] == "memcite" {
					hm["jobs"] = append(js[:i:i], js[i+1:]...)
					break
				}
			}
		}
		if len(hm) == 0 {
			delete(m, h)
		}
	}
}

// lefthookRemove removes what lefthookAdd added: a memcite command or job
// running exactly our command, then a commands mapping and a hook left
// empty by that. A memcite entry that was changed by hand is kept and
// reported in kept.
func lefthookRemove(src []byte) (out []byte, removed, kept []string, err error) {
	return lefthookRemoveHooks(src, hooksWithConfig)
}

// lefthookRemoveHooks is lefthookRemove for some hooks.
func lefthookRemoveHooks(src []byte, hooks []string) (out []byte, removed, kept []string, err error) {
	t := yamledit.SplitText(src)
	for _, h := range hooks {
		root, err := yamledit.ParseMapping(t.Bytes())
		if err != nil {
			return nil, nil, nil, err
		}
		k, v := yamledit.Lookup(root, h)
		if !yamledit.IsBlock(v, yaml.MappingNode) {
			continue
		}
		done := false
		if ck, cv := yamledit.Lookup(v, "commands"); yamledit.IsBlock(cv, yaml.MappingNode) {
			mk, mv := yamledit.Lookup(cv, "memcite")
			switch {
			case mk == nil:
			case !isOurLefthookJob(mv, h, false):
				kept = append(kept, h)
			case len(cv.Content) == 2 && len(v.Content) == 2:
				t.Remove(k.Line-1, t.RemovalEnd(k.Line-1, k.Column-1, false)) // the whole hook
				done = true
			case len(cv.Content) == 2:
				t.Remove(ck.Line-1, t.RemovalEnd(ck.Line-1, ck.Column-1, false))
				done = true
			default:
				t.Remove(mk.Line-1, t.RemovalEnd(mk.Line-1, mk.Column-1, false))
				done = true
			}
		}
		if jk, jv := yamledit.Lookup(v, "jobs"); !done && yamledit.IsBlock(jv, yaml.SequenceNode) {
			for _, item := range jv.Content {
				if name, _ := yamledit.Scalar(item, "name"); name != "memcite" {
					continue
				}
				line, dash, ok := t.ItemStart(item)
				switch {
				case !ok || !isOurLefthookJob(item, h, true):
					kept = append(kept, h)
				case len(jv.Content) == 1:
					t.Remove(jk.Line-1, t.RemovalEnd(jk.Line-1, jk.Column-1, true))
					done = true
				default:
					t.Remove(line, t.RemovalEnd(line, dash, false))
					done = true
				}
				break
			}
		}
		if done {
			removed = append(removed, h)
		}
	}
	return t.Bytes(), removed, kept, nil
}

// hooksWithConfig are the hooks whose manager configuration install
// edits.
var hooksWithConfig = hooks.Names

// isOurLefthookJob reports whether a memcite command (or job) is exactly
// what lefthookAdd writes for the hook.
func isOurLefthookJob(n *yaml.Node, hook string, item bool) bool {
	want := []string{"run"}
	if item {
		want = []string{"name", "run"}
	}
	if hook == "post-rewrite" {
		want = append(want, "use_stdin")
		if v, _ := yamledit.Scalar(n, "use_stdin"); v != "true" {
			return false
		}
	}
	got := yamledit.Keys(n)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		return false
	}
	run, _ := yamledit.Scalar(n, "run")
	return run == strings.TrimPrefix(lefthookJob(hook, 0, 2, false)[1], "  run: ")
}

// lefthookHookRuns looks for a command or job of the hook, in the main
// configuration with the local one merged over it, that runs git-memcite
// for the hook. It returns where ("commands.memcite", "jobs.memcite") or
// "", and a remark: a command other than 'git memcite hook', a skip
// condition, or why a configured command does not run.
func lefthookHookRuns(main, local *yaml.Node, hook string) (where, note string) {
	_, hv := yamledit.Lookup(main, hook)
	_, lv := yamledit.Lookup(local, hook)
	for _, e := range lefthookEntries(hv, lv) {
		ok, n := entryRunsFor(e.run, hook)
		if !ok {
			continue
		}
		switch {
		case skipAlways(hv) || skipAlways(lv):
			return "", fmt.Sprintf("lefthook skips the whole %s hook (skip: true)", hook)
		case e.skip:
			return "", fmt.Sprintf("lefthook skips %s.%s (skip: true)", hook, e.where)
		}
		if e.cond || hasSkipCondition(hv) || hasSkipCondition(lv) {
			n = strings.TrimPrefix(n+"; ", "; ") + "a skip condition may keep it from running"
		}
		return e.where, n
	}
	return "", ""
}

// lefthookEntry is a command or job of a lefthook hook.
type lefthookEntry struct {
	where string // commands.<name>, jobs.<name> or jobs[<i>]
	run   string
	skip  bool // skip: true
	cond  bool // another skip value (merge, rebase, a ref…)
}

// lefthookEntries lists a hook's commands and jobs, with those of the
// local configuration merged over the main ones of the same name.
func lefthookEntries(hv, lv *yaml.Node) []lefthookEntry {
	var out []lefthookEntry
	index := map[string]int{}
	add := func(where, key string, n *yaml.Node) {
		run, hasRun := yamledit.Scalar(n, "run")
		_, sk := yamledit.Lookup(n, "skip")
		e := lefthookEntry{where: where, run: run, skip: skipAlways(n), cond: sk != nil && !skipAlways(n)}
		if i, ok := index[key]; ok && key != "" {
			if hasRun {
				out[i].run = run
			}
			if sk != nil {
				out[i].skip, out[i].cond = e.skip, e.cond
			}
			return
		}
		if key != "" {
			index[key] = len(out)
		}
		out = append(out, e)
	}
	for _, h := range []*yaml.Node{hv, lv} {
		if _, cmds := yamledit.Lookup(h, "commands"); cmds != nil && cmds.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(cmds.Content); i += 2 {
				name := cmds.Content[i].Value
				add("commands."+name, "c:"+name, cmds.Content[i+1])
			}
		}
		if _, jobs := yamledit.Lookup(h, "jobs"); jobs != nil && jobs.Kind == yaml.SequenceNode {
			for i, j := range jobs.Content {
				name, _ := yamledit.Scalar(j, "name")
				where, key := fmt.Sprintf("jobs[%d]", i), ""
				if name != "" {
					where, key = "jobs."+name, "j:"+name
				}
				add(where, key, j)
			}
		}
	}
	return out
}

// skipAlways reports whether a hook or job mapping has skip: true.
func skipAlways(n *yaml.Node) bool {
	v, ok := yamledit.Scalar(n, "skip")
	return ok && v == "true"
}

func hasSkipCondition(n *yaml.Node) bool {
	_, v := yamledit.Lookup(n, "skip")
	return v != nil && !skipAlways(n)
}

// readYAMLFile parses a configuration file relative to top; a missing
// file is nil without error.
func readYAMLFile(top, rel string) (*yaml.Node, error) {
	if rel == "" {
		return nil, nil
	}
	b, err := regfile.ReadFile(filepath.Join(top, rel))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	if strings.HasSuffix(rel, ".toml") {
		return nil, fmt.Errorf("%s: TOML is not read: %w", rel, yamledit.ErrUnsupported)
	}
	root, err := yamledit.ParseMapping(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return root, nil
}
