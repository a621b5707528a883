package gitrepo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/git-memcite/git-memcite/internal/regfile"
)

// configInProcess reads the memcite.* and core.* configuration without
// starting git, for Config: it is read on every run (each hook, each
// command), and a git process costs a hook 2–3 ms.
//
// The contract: it returns exactly the map Config builds from `git config
// --null --get-regexp '^(memcite|core)\.'` (keys as git prints them, then
// lower-cased; every value in git's order; "" for a variable given without
// "=") or, with a reason, nothing. It answers only where the answer is
// certain: a repository of the plain layout (discoverPlain), no
// configuration in the environment (GIT_CONFIG_COUNT, GIT_CONFIG) but the
// command line's (GIT_CONFIG_PARAMETERS, where cmdlineConfig reads it:
// added last, as git does), a system file whose path is known, and
// files that are missing or readable, that it parses as git 2.39 does and
// that include nothing. Anything else — a syntax git rejects, an [include]
// or [includeIf] section, a file it cannot read, a repository format git
// would refuse or ignore — is declined, and Config asks git, so that git's
// answer, or git's own error ("bad config line N in file F"), is the
// user's.
func (r *Repo) configInProcess() (cfg map[string][]string, files []string, declined string) {
	if !r.plain {
		return nil, nil, "not a plain repository layout"
	}
	set, params := layoutEnvSet()
	if set != "" {
		return nil, nil, set + " is set"
	}
	files, declined = configFiles(r.GitDir)
	if declined != "" {
		return nil, nil, declined
	}
	cfg = map[string][]string{}
	for i, f := range files {
		data, why := readConfigFile(f)
		if why != "" {
			return nil, nil, why
		}
		local := i == len(files)-1
		err := parseConfig(data, func(key, value string, hasValue bool) error {
			if local {
				if err := checkRepoFormat(key, value, hasValue); err != nil {
					return err
				}
			}
			if !strings.HasPrefix(key, "memcite.") && !strings.HasPrefix(key, "core.") {
				return nil
			}
			if !utf8.ValidString(key) {
				// git matches the key with the C library's regexec, which
				// may read invalid UTF-8 differently in a UTF-8 locale
				return errors.New("key not valid UTF-8")
			}
			// as Config stores git's answer: a variable without "=" is
			// printed as its key alone, and read as an empty value
			k := strings.ToLower(key)
			cfg[k] = append(cfg[k], value)
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Sprintf("%s: %v", f, err)
		}
	}
	// the command line's configuration comes last, as git reads it
	for _, p := range params {
		k := strings.ToLower(p.key)
		if strings.HasPrefix(k, "memcite.") || strings.HasPrefix(k, "core.") {
			cfg[k] = append(cfg[k], p.value)
		}
	}
	return cfg, files, ""
}

// checkRepoFormat declines the repository's own config where git, reading
// the repository format before anything else, would die (a core.bare that
// is no boolean, a core.repositoryformatversion that is no number, a
// core.worktree without value) or ignore the repository (a version above
// 1, an extension it does not know).
func checkRepoFormat(key, value string, hasValue bool) error {
	switch {
	case strings.HasPrefix(key, "extensions."):
		return errors.New("repository extensions")
	case key == "core.worktree":
		return errors.New("core.worktree")
	case key == "core.repositoryformatversion":
		if !hasValue || value != "0" && value != "1" {
			return fmt.Errorf("core.repositoryformatversion %q", value)
		}
	case key == "core.bare":
		switch strings.ToLower(value) {
		case "", "true", "false", "yes", "no", "on", "off", "1", "0":
		default:
			return fmt.Errorf("core.bare %q", value)
		}
	}
	return nil
}

// configFiles lists the files `git config` reads, in its order: system,
// global (XDG, then ~/.gitconfig, or GIT_CONFIG_GLOBAL alone), the
// repository's. Paths are spelled as git spells them (the system path
// cleaned as git normalises it, the others concatenated as git does), so
// that the kernel resolves the same files. It declines when a path depends
// on something it cannot know: the system file of a git installed
// elsewhere, an unset HOME, a relative path.
func configFiles(gitDir string) ([]string, string) {
	var files []string
	nosys, ok := envBool("GIT_CONFIG_NOSYSTEM")
	if !ok {
		return nil, "GIT_CONFIG_NOSYSTEM is not a boolean"
	}
	if !nosys {
		if p, set := os.LookupEnv("GIT_CONFIG_SYSTEM"); set {
			if p != "" { // "": git looks for no file
				if !filepath.IsAbs(p) {
					return nil, "GIT_CONFIG_SYSTEM is relative"
				}
				files = append(files, filepath.Clean(p))
			}
		} else {
			p, why := systemConfig()
			if why != "" {
				return nil, why
			}
			files = append(files, p)
		}
	}
	if p, set := os.LookupEnv("GIT_CONFIG_GLOBAL"); set {
		if p != "" {
			if !filepath.IsAbs(p) {
				return nil, "GIT_CONFIG_GLOBAL is relative"
			}
			files = append(files, p)
		}
	} else {
		home := os.Getenv("HOME")
		if !filepath.IsAbs(home) {
			return nil, "HOME is unset or relative"
		}
		if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
			if !filepath.IsAbs(xdg) {
				return nil, "XDG_CONFIG_HOME is relative"
			}
			files = append(files, xdg+"/git/config")
		} else {
			files = append(files, home+"/.config/git/config")
		}
		files = append(files, home+"/.gitconfig")
	}
	return append(files, gitDir+"/config"), ""
}

// systemConfig returns the system configuration file of the git that
// Config would run: /etc/gitconfig for the git of a Linux distribution
// (prefix /usr, which git's build turns into /etc for its system files).
// A git found anywhere else may have been built with another prefix, or
// finds its files relative to itself.
func systemConfig() (string, string) {
	if runtime.GOOS != "linux" {
		return "", "system config path of git on " + runtime.GOOS
	}
	p, err := exec.LookPath("git")
	if err != nil {
		return "", "git not found on PATH"
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", "git not found on PATH"
	}
	if real != "/usr/bin/git" && real != "/usr/lib/git-core/git" {
		return "", "system config path of " + real
	}
	return "/etc/gitconfig", ""
}

// envBool reads a boolean environment variable as git_env_bool does, for
// the spellings whose meaning is certain, and false (unset) by default.
func envBool(name string) (value, ok bool) {
	switch strings.ToLower(os.Getenv(name)) {
	case "1", "true", "yes", "on":
		return true, true
	case "", "0", "false", "no", "off":
		return false, true
	}
	return false, false
}

// readConfigFile returns a config file's contents: none for a missing
// file, as for git. What git might warn about or die on (a file it cannot
// read, a directory, something other than a regular file) is declined;
// /dev/null, a common GIT_CONFIG_GLOBAL, is empty.
func readConfigFile(p string) ([]byte, string) {
	if p == os.DevNull {
		return nil, ""
	}
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, ""
	}
	if err != nil {
		return nil, err.Error()
	}
	if !fi.Mode().IsRegular() {
		return nil, p + " is not a regular file"
	}
	data, err := regfile.ReadFile(p)
	if err != nil {
		return nil, err.Error()
	}
	return data, ""
}

// errConfigSyntax is a file git would refuse to read ("bad config line").
var errConfigSyntax = errors.New("syntax git rejects")

// parseConfig reads a config file as git 2.39's config parser does
// (config.c: git_parse_source, get_base_var, get_value, parse_value) and
// calls fn for every variable, in order, with its key as git spells it to
// callbacks: the section name in lower case, the subsection as written
// ("[a \"Sub\"]") or in lower case (the legacy "[a.Sub]"), the variable
// name in lower case. hasValue is false for a variable without "=" (a
// boolean true to git). It returns errConfigSyntax where git would stop
// with "bad config line", an error for an [include] or [includeIf]
// section (whose files git would read too) and for a NUL byte (which
// git's C strings would cut), and fn's error, which stops it.
//
// The parser follows git's character by character, since git's syntax
// has corners a grammar would smooth over: each unquoted space or tab
// inside a value becomes one space, a lone CR is a space, spaces after an
// empty pair of quotes are dropped, a variable may follow a section
// header on the same line.
func parseConfig(data []byte, fn func(key, value string, hasValue bool) error) error {
	if bytes.IndexByte(data, 0) >= 0 {
		return errors.New("NUL byte")
	}
	s := configScanner{b: data}
	const bom = "\xef\xbb\xbf"
	nbom := 0 // bytes of the byte order mark matched; -1 once past it
	var base []byte
	comment := false
	for {
		c := s.next()
		if nbom >= 0 && nbom < len(bom) {
			if c == bom[nbom] {
				nbom++
				continue
			}
			if nbom > 0 {
				return errConfigSyntax // part of a byte order mark
			}
			nbom = -1
		}
		switch {
		case c == '\n':
			if s.eof {
				return nil
			}
			comment = false
			continue
		case comment:
			continue
		case isConfigSpace(c):
			continue
		case c == '#' || c == ';':
			comment = true
			continue
		case c == '[':
			name, ok := s.section()
			if !ok || len(name) == 0 {
				return errConfigSyntax
			}
			sect, _, _ := strings.Cut(string(name), ".")
			if sect == "include" || sect == "includeif" {
				return errors.New("[" + sect + "] section")
			}
			base = append(name, '.')
			continue
		case !isAlpha(c):
			return errConfigSyntax
		}
		key, value, hasValue, ok := s.variable(base, c)
		if !ok {
			return errConfigSyntax
		}
		if err := fn(key, value, hasValue); err != nil {
			return err
		}
	}
}

// configScanner reads a config file as git's get_next_char does: CR LF is
// one newline, and the end of the file is a newline with eof set.
type configScanner struct {
	b   []byte
	i   int
	eof bool
}

func (s *configScanner) next() byte {
	if s.i >= len(s.b) {
		s.eof = true
		return '\n'
	}
	c := s.b[s.i]
	s.i++
	if c == '\r' && s.i < len(s.b) && s.b[s.i] == '\n' {
		s.i++
		return '\n'
	}
	return c
}

// section reads a section header after its "[" (git's get_base_var and
// get_extended_base_var) and returns the section's name.
func (s *configScanner) section() ([]byte, bool) {
	var name []byte
	for {
		c := s.next()
		if s.eof {
			return nil, false
		}
		if c == ']' {
			return name, true
		}
		if isConfigSpace(c) {
			return s.subsection(name, c)
		}
		if !isKeyChar(c) && c != '.' {
			return nil, false
		}
		name = append(name, toLowerASCII(c))
	}
}

// subsection reads `"subsection"]` after the space that ended a section
// name: the subsection keeps its case, and a backslash keeps the
// character after it, whatever it is.
func (s *configScanner) subsection(name []byte, c byte) ([]byte, bool) {
	for {
		if c == '\n' {
			return nil, false
		}
		if c = s.next(); !isConfigSpace(c) {
			break
		}
	}
	if c != '"' {
		return nil, false
	}
	name = append(name, '.')
	for {
		c := s.next()
		if c == '\n' {
			return nil, false
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = s.next(); c == '\n' {
				return nil, false
			}
		}
		name = append(name, c)
	}
	if s.next() != ']' {
		return nil, false
	}
	return name, true
}

// variable reads a variable whose name starts with c (git's get_value).
func (s *configScanner) variable(base []byte, c byte) (key, value string, hasValue, ok bool) {
	name := append(append(make([]byte, 0, len(base)+16), base...), toLowerASCII(c))
	for {
		c = s.next()
		if s.eof || !isKeyChar(c) {
			break
		}
		name = append(name, toLowerASCII(c))
	}
	for c == ' ' || c == '\t' {
		c = s.next()
	}
	if c == '\n' {
		return string(name), "", false, true
	}
	if c != '=' {
		return "", "", false, false
	}
	value, ok = s.value()
	return string(name), value, true, ok
}

// value reads a value after its "=" (git's parse_value).
func (s *configScanner) value() (string, bool) {
	var v []byte
	quote, comment := false, false
	space := 0
	for {
		c := s.next()
		if c == '\n' {
			if quote {
				return "", false
			}
			return string(v), true
		}
		if comment {
			continue
		}
		if isConfigSpace(c) && !quote {
			if len(v) > 0 {
				space++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; space > 0; space-- {
			v = append(v, ' ')
		}
		if c == '\\' {
			switch c = s.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", false
			}
			v = append(v, c)
			continue
		}
		if c == '"' {
			quote = !quote
			continue
		}
		v = append(v, c)
	}
}

// isConfigSpace is git's isspace: space, tab, LF and CR (not VT or FF).
func isConfigSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isKeyChar(c byte) bool { return isAlpha(c) || '0' <= c && c <= '9' || c == '-' }

func toLowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
