// Package config resolves the settings of git-memcite from five layers, the
// first that sets a key winning (git-lfs' rule: personal git config
// overrides the committed team file):
//
//  1. command-line flags
//  2. MEMCITE_* environment variables
//  3. git config memcite.* (personal: repository, global or system)
//  4. the committed .memcite.yaml (team), or the file MEMCITE_CONFIG names
//  5. built-in defaults
//
// Every value remembers where it came from, for `git memcite config`.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/internal/findings"
)

// FileName is the team configuration file at the repository root.
const FileName = ".memcite.yaml"

// Key describes one setting and where each layer spells it.
type Key struct {
	Name    string   // as printed and in .memcite.yaml (with _ for -)
	Flag    string   // command-line flag, "" when none
	Env     string   // environment variable, "" when none
	Git     string   // git config key, "" when none
	List    bool     // several values
	Default []string // built-in default
	Allowed []string // accepted values, nil for any
	Help    string
	// Hook marks the settings the git hooks obey. Only git config sets
	// them (a personal or machine choice, read by a hook before anything
	// else): no flag, variable or team file. Their values are read as git
	// reads its own (case-insensitive; Bool: git's boolean spellings), and
	// a value that is not understood is a warning and the default, never
	// an error: a typo in a setting must not stop every commit.
	Hook bool
	Bool bool // true or false, in any of git's spellings
}

// Layers names the layers that may set k, highest precedence first.
func (k Key) Layers() []string {
	var out []string
	if k.Flag != "" {
		out = append(out, "flag "+k.Flag)
	}
	if k.Env != "" {
		out = append(out, "env "+k.Env)
	}
	if k.Git != "" {
		out = append(out, "git config "+k.Git)
	}
	if !k.Hook {
		out = append(out, FileName)
	}
	return append(out, "default")
}

// The hook settings' names (git config keys, as documented).
const (
	HookEnabled       = "memcite.enabled"
	HookPreCommit     = "memcite.preCommit"
	HookPostMerge     = "memcite.postMerge"
	HookRequireBinary = "memcite.requireBinary"
	HookOnError       = "memcite.onError"
)

// Keys are the settings, in the order `git memcite config` prints them.
var Keys = []Key{
	{Name: "dirs", Flag: "--dir", Env: "MEMCITE_DIR", Git: "memcite.dir", List: true, Default: []string{".serena/memories"},
		Help: "memory directories, relative to the repository root (MEMCITE_DIR: separated by ':')"},
	{Name: "ignore", Env: "MEMCITE_IGNORE", Git: "memcite.ignore", List: true,
		Help: "globs of memory files not to check (** crosses directories; MEMCITE_IGNORE: separated by ':')"},
	{Name: "format", Flag: "--format", Env: "MEMCITE_FORMAT", Git: "memcite.format", Default: []string{"text"},
		Allowed: []string{"text", "json", "github", "sarif", "gitlab"}, Help: "output format"},
	{Name: "fail-on", Flag: "--fail-on", Env: "MEMCITE_FAIL_ON", Git: "memcite.failOn", Default: []string{"error"},
		Allowed: []string{"error", "warning", "note", "never"}, Help: "lowest finding level that fails the run (exit 1)"},
	{Name: "color", Flag: "--color", Env: "MEMCITE_COLOR", Git: "memcite.color", Default: []string{"auto"},
		Allowed: []string{"auto", "always", "never"}, Help: "colour output"},
	{Name: "agent-hook", Env: "MEMCITE_AGENT_HOOK", Git: "memcite.agentHook", Default: []string{"quiet"},
		Allowed: []string{"quiet", "verbose", "pin", "off"},
		Help:    "what the agent hook tells an agent that reads or writes a memory or starts a session: stale citations only (quiet), also one line when all hold (verbose), as quiet and the hook pins the citations that hold of a memory the agent wrote (pin), nothing (off)"},
	{Name: "prose", Env: "MEMCITE_PROSE", Git: "memcite.prose", Default: []string{"error"},
		Allowed: []string{"error", "warn", "block", "off"},
		Help:    "references in the prose of memories: stale ones fail verification (error), are warnings (warn), also block commits in the pre-commit hook (block), or are not checked (off)"},
	{Name: HookEnabled, Git: HookEnabled, Hook: true, Bool: true, Default: []string{"true"},
		Help: "whether the installed git hooks run at all (docs/hooks.md)"},
	{Name: HookPreCommit, Git: HookPreCommit, Hook: true, Default: []string{"block"},
		Allowed: []string{"strict", "block", "fix", "warn", "off"},
		Help:    "what the pre-commit and pre-merge-commit hooks do with stale citations (docs/hooks.md)"},
	{Name: HookPostMerge, Git: HookPostMerge, Hook: true, Default: []string{"suggest"},
		Allowed: []string{"suggest", "apply", "off"},
		Help:    "what the post-merge and post-rewrite hooks do with citations a change broke (docs/hooks.md)"},
	{Name: HookRequireBinary, Git: HookRequireBinary, Hook: true, Bool: true, Default: []string{"false"},
		Help: "whether the pre-* hook scripts block when git-memcite is not on PATH (read by the scripts themselves)"},
	{Name: HookOnError, Git: HookOnError, Hook: true, Default: []string{"warn"},
		Allowed: []string{"warn", "block"},
		Help:    "what a pre-* hook does when git-memcite itself fails: warn and let git go on, or block"},
}

// Value is a resolved setting.
type Value struct {
	Key    string
	Values []string
	Origin string // "flag --dir", "env MEMCITE_DIR", "git config memcite.dir", ".memcite.yaml", "default"
}

// String joins a list with ", ".
func (v Value) String() string { return strings.Join(v.Values, ", ") }

// First is the value of a scalar setting ("" when unset).
func (v Value) First() string {
	if len(v.Values) == 0 {
		return ""
	}
	return v.Values[0]
}

// Severity is a rule's level and where it was set.
type Severity struct {
	Rule   string
	Level  findings.Level
	Origin string
}

// File is the content of .memcite.yaml.
type File struct {
	Dirs      []string          `yaml:"dirs"`
	Ignore    []string          `yaml:"ignore"`
	Format    string            `yaml:"format"`
	FailOn    string            `yaml:"fail_on"`
	Color     string            `yaml:"color"`
	AgentHook string            `yaml:"agent_hook"`
	Prose     string            `yaml:"prose"`
	Severity  map[string]string `yaml:"severity"`
}

// ParseFile reads .memcite.yaml; unknown keys are errors, so that typos
// do not pass silently.
func ParseFile(name string, data []byte) (*File, error) {
	var f File
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &f, nil
}

func (f *File) values(k string) []string {
	if f == nil {
		return nil
	}
	switch k {
	case "dirs":
		return f.Dirs
	case "ignore":
		return f.Ignore
	case "format":
		return nonEmpty(f.Format)
	case "fail-on":
		return nonEmpty(f.FailOn)
	case "color":
		return nonEmpty(f.Color)
	case "agent-hook":
		return nonEmpty(f.AgentHook)
	case "prose":
		return nonEmpty(f.Prose)
	}
	return nil
}

func nonEmpty(s string) []string {
	if s = strings.TrimSpace(s); s == "" {
		return nil
	}
	return []string{s}
}

// Layers are the sources of settings, highest precedence first.
type Layers struct {
	Flags    map[string][]string                // by key name; only flags the user gave
	Getenv   func(string) string                // nil: no environment
	Git      func(key string) ([]string, error) // nil: not in a repository
	File     *File                              // nil: no file
	FileName string                             // where File came from, for origins
}

// Config is the resolved configuration.
type Config struct {
	Values     map[string]Value
	Severities []Severity // rules whose level is not the default, sorted
	FileName   string     // the file read, "" for none
	// Warnings are the hook settings whose value was not understood (the
	// default is used), in the order of Keys.
	Warnings []string
}

// Get returns a setting.
func (c *Config) Get(name string) Value { return c.Values[name] }

// Set overrides a setting with a command-line flag's value when v is not
// empty (flags are the highest layer).
func (c *Config) Set(name, flag string, v ...string) error {
	if len(v) == 0 || (len(v) == 1 && v[0] == "") {
		return nil
	}
	k, ok := keyByName(name)
	if !ok {
		return fmt.Errorf("unknown setting %s", name)
	}
	if err := check(k, v, "flag "+flag); err != nil {
		return err
	}
	c.Values[name] = Value{Key: name, Values: v, Origin: "flag " + flag}
	return nil
}

func keyByName(name string) (Key, bool) {
	for _, k := range Keys {
		if k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}

// Resolve applies the layers.
func Resolve(l Layers) (*Config, error) {
	c := &Config{Values: map[string]Value{}}
	if l.File != nil {
		c.FileName = l.FileName
	}
	for _, k := range Keys {
		v, warn, err := resolve(k, l)
		if err != nil {
			return nil, err
		}
		c.Values[k.Name] = v
		if warn != "" {
			c.Warnings = append(c.Warnings, warn)
		}
	}
	if l.File != nil {
		for rule, s := range l.File.Severity {
			lv, err := findings.ParseLevel(s)
			if err != nil {
				return nil, fmt.Errorf("%s: severity of %s: %w", l.FileName, rule, err)
			}
			id := rule
			if !strings.HasPrefix(id, findings.RulePrefix) {
				id = findings.RulePrefix + id
			}
			if _, ok := findings.RuleByID(id); !ok {
				return nil, fmt.Errorf("%s: severity: unknown rule %s", l.FileName, rule)
			}
			c.Severities = append(c.Severities, Severity{Rule: id, Level: lv, Origin: l.FileName})
		}
		sort.Slice(c.Severities, func(i, j int) bool { return c.Severities[i].Rule < c.Severities[j].Rule })
	}
	return c, nil
}

// ResolveHooks resolves only the hook settings (the keys marked Hook) from
// git config: what a hook run reads before anything else. It cannot fail:
// a value not understood is a warning and the default.
func ResolveHooks(git func(key string) ([]string, error)) *Config {
	c := &Config{Values: map[string]Value{}}
	for _, k := range Keys {
		if !k.Hook {
			continue
		}
		def := Value{Key: k.Name, Values: slices.Clone(k.Default), Origin: "default"}
		v, warn := resolveHook(k, Layers{Git: git}, def)
		c.Values[k.Name] = v
		if warn != "" {
			c.Warnings = append(c.Warnings, warn)
		}
	}
	return c
}

func resolve(k Key, l Layers) (Value, string, error) {
	try := func(vals []string, origin string) (Value, bool, error) {
		if len(vals) == 0 {
			return Value{}, false, nil
		}
		if err := check(k, vals, origin); err != nil {
			return Value{}, false, err
		}
		return Value{Key: k.Name, Values: vals, Origin: origin}, true, nil
	}
	def := Value{Key: k.Name, Values: slices.Clone(k.Default), Origin: "default"}
	if k.Hook {
		v, warn := resolveHook(k, l, def)
		return v, warn, nil
	}
	if k.Flag != "" {
		if v, ok, err := try(l.Flags[k.Name], "flag "+k.Flag); ok || err != nil {
			return v, "", err
		}
	}
	if k.Env != "" && l.Getenv != nil {
		var vals []string
		if s := l.Getenv(k.Env); s != "" {
			if k.List {
				vals = splitList(s)
			} else {
				vals = []string{strings.TrimSpace(s)}
			}
		}
		if v, ok, err := try(vals, "env "+k.Env); ok || err != nil {
			return v, "", err
		}
	}
	if k.Git != "" && l.Git != nil {
		vals, err := l.Git(k.Git)
		if err != nil {
			return Value{}, "", err
		}
		if !k.List && len(vals) > 1 {
			vals = vals[len(vals)-1:] // git's rule: the last value wins
		}
		if v, ok, err := try(vals, "git config "+k.Git); ok || err != nil {
			return v, "", err
		}
	}
	if v, ok, err := try(l.File.values(k.Name), l.FileName); ok || err != nil {
		return v, "", err
	}
	return def, "", nil
}

// resolveHook reads a hook setting from git config, as git reads its own
// values: the last one wins, case does not matter, and a value that is not
// understood is a warning and the default (the origin says which value was
// refused).
func resolveHook(k Key, l Layers, def Value) (Value, string) {
	if l.Git == nil {
		return def, ""
	}
	vals, err := l.Git(k.Git)
	if err != nil || len(vals) == 0 {
		return def, ""
	}
	raw := vals[len(vals)-1]
	if v, ok := hookValue(k, raw); ok {
		return Value{Key: k.Name, Values: []string{v}, Origin: "git config " + k.Git}, ""
	}
	want := orList(k.Allowed)
	if k.Bool {
		want = "a boolean"
	}
	def.Origin = fmt.Sprintf("git config %s is %q, not a valid value; %s used", k.Git, raw, def.First())
	return def, fmt.Sprintf("%s=%q is not %s; using %s", k.Git, raw, want, def.First())
}

// orList joins values as "a, b or c".
func orList(vals []string) string {
	if len(vals) < 2 {
		return strings.Join(vals, "")
	}
	return strings.Join(vals[:len(vals)-1], ", ") + " or " + vals[len(vals)-1]
}

// hookValue is a hook setting's value in its canonical spelling.
func hookValue(k Key, raw string) (string, bool) {
	v := strings.ToLower(strings.TrimSpace(raw))
	if k.Bool {
		switch v {
		case "true", "yes", "on", "1", "": // "": a key with no '=' is true in git
			return "true", true
		case "false", "no", "off", "0":
			return "false", true
		}
		return "", false
	}
	if k.Allowed == nil || slices.Contains(k.Allowed, v) {
		return v, true
	}
	return "", false
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ":") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func check(k Key, vals []string, origin string) error {
	if k.Allowed == nil {
		return nil
	}
	for _, v := range vals {
		if !slices.Contains(k.Allowed, v) {
			return fmt.Errorf("%s: %s must be one of %s, got %q", origin, k.Name, strings.Join(k.Allowed, ", "), v)
		}
	}
	return nil
}

// Levels returns the configured rule levels, for findings.Severities.
func (c *Config) Levels() map[string]findings.Level {
	m := map[string]findings.Level{}
	for _, s := range c.Severities {
		m[s.Rule] = s.Level
	}
	return m
}

// FailOn is the lowest level that fails a run (Off: never).
func (c *Config) FailOn() findings.Level {
	v := c.Get("fail-on").First()
	if v == "never" {
		return findings.Off
	}
	if l, err := findings.ParseLevel(v); err == nil && l != findings.Off {
		return l
	}
	return findings.Error
}

// Ignored reports whether a repo-relative memory path matches one of the
// ignore globs: path.Match syntax where ** also matches across '/', and a
// pattern without '/' matches the file name at any depth.
func (c *Config) Ignored(p string) bool {
	for _, g := range c.Get("ignore").Values {
		if GlobMatch(g, p) {
			return true
		}
	}
	return false
}

// GlobMatch matches a slash path against a glob with ** support.
func GlobMatch(glob, p string) bool {
	if !strings.Contains(glob, "/") {
		p = path.Base(p)
	}
	re, err := globRegexp(glob)
	return err == nil && re.MatchString(p)
}

func globRegexp(g string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '*':
			if i+1 < len(g) && g[i+1] == '*' {
				i++
				if i+1 < len(g) && g[i+1] == '/' {
					i++
					b.WriteString("(?:.*/)?") // **/ : any directories, or none
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			j := strings.IndexByte(g[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("bad glob %q", g)
			}
			cls := g[i+1 : i+j]
			if strings.HasPrefix(cls, "!") {
				cls = "^" + cls[1:]
			}
			b.WriteString("[" + cls + "]")
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}
