package gitrepo

import (
	"errors"
	"os"
	"strings"
	"unicode/utf8"
)

// configParam is one entry of the configuration git passes in
// GIT_CONFIG_PARAMETERS: a key as given (not yet lower-cased), and its
// value ("" for a key given without one, `git -c key`, as Config reads a
// variable without "=").
type configParam struct{ key, value string }

// cmdlineConfig reads GIT_CONFIG_PARAMETERS, the configuration `git -c
// key=value …` hands to the processes it starts (the hooks of a commit an
// editor or an agent makes with `git -c user.useConfigOnly=true commit`,
// say). ok is false where this package must leave the configuration to
// git: git refuses the variable (parseConfigParams), a key is not valid
// UTF-8, or a key changes what is read in-process besides Config's map —
// the repository's layout (core.worktree, core.bare,
// core.repositoryformatversion, extensions.*), who is trusted (safe.*),
// or what is included (include.*, includeIf.*).
func cmdlineConfig() (params []configParam, ok bool) {
	env, set := os.LookupEnv("GIT_CONFIG_PARAMETERS")
	if !set {
		return nil, true
	}
	params, err := parseConfigParams(env)
	if err != nil {
		return nil, false
	}
	for _, p := range params {
		if !utf8.ValidString(p.key) {
			return nil, false
		}
		k := strings.ToLower(p.key)
		section, _, _ := strings.Cut(k, ".")
		switch {
		case section == "include" || section == "includeif" || section == "safe" || section == "extensions",
			k == "core.worktree" || k == "core.bare" || k == "core.repositoryformatversion":
			return nil, false
		}
	}
	return params, true
}

// errBogusParams: GIT_CONFIG_PARAMETERS as git refuses it.
var errBogusParams = errors.New("bogus format in GIT_CONFIG_PARAMETERS")

// parseConfigParams reads the value of GIT_CONFIG_PARAMETERS as git 2.39
// does (config.c, parse_config_env_list): entries separated by white
// space, each either 'key=value' (split at the first "=", the key
// trimmed; 'key' alone has no value) or 'key'='value' ('key'= has no
// value), every word single-quoted as git's sq_quote writes it (a quote
// or an exclamation mark inside a word ends the quoted part, backslashed,
// before the next quoted part). A key must be one git accepts
// (validConfigKey); anything else is errBogusParams, as git fails on it.
func parseConfigParams(env string) ([]configParam, error) {
	var params []configParam
	for cur := env; cur != ""; {
		key, rest, ok := sqDequoteStep(cur)
		if !ok {
			return nil, errBogusParams
		}
		var p configParam
		switch {
		case rest == "" || isConfigSpace(rest[0]):
			// old style 'key=value'
			k, v, _ := strings.Cut(key, "=")
			p = configParam{key: strings.Trim(k, " \t\n\r"), value: v}
		case rest[0] == '=':
			// new style 'key'='value', or 'key'= (no value)
			p.key, rest = key, rest[1:]
			if rest != "" && rest[0] == '\'' {
				if p.value, rest, ok = sqDequoteStep(rest); !ok {
					return nil, errBogusParams
				}
			}
			if rest != "" && !isConfigSpace(rest[0]) {
				return nil, errBogusParams
			}
		default:
			return nil, errBogusParams
		}
		if !validConfigKey(p.key) {
			return nil, errBogusParams
		}
		params = append(params, p)
		cur = strings.TrimLeft(rest, " \t\n\r")
	}
	return params, nil
}

// sqDequoteStep reads the single-quoted word at the start of s, as git's
// sq_dequote_step: quoted parts, joined by \' or \! outside the quotes.
// It returns the word and what follows it; ok is false when s does not
// start with a quote or the quote is not closed.
func sqDequoteStep(s string) (word, rest string, ok bool) {
	if s == "" || s[0] != '\'' {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; ; {
		if i >= len(s) {
			return "", "", false
		}
		c := s[i]
		if c != '\'' {
			b.WriteByte(c)
			i++
			continue
		}
		i++ // out of the quotes
		if i+2 < len(s) && s[i] == '\\' && (s[i+1] == '\'' || s[i+1] == '!') && s[i+2] == '\'' {
			b.WriteByte(s[i+1])
			i += 3
			continue
		}
		return b.String(), s[i:], true
	}
}

// validConfigKey reports whether git accepts key on its command line
// (git_config_parse_key): a section and a variable name joined by the last
// dot; the section (up to the first dot) of letters, digits and dashes;
// the variable name starting with a letter, then letters, digits and
// dashes; a subsection between them without a newline.
func validConfigKey(key string) bool {
	last := strings.LastIndexByte(key, '.')
	if last <= 0 || last == len(key)-1 {
		return false
	}
	first := strings.IndexByte(key, '.')
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case i < first || i > last:
			if !isKeyChar(c) || (i == last+1 && !isAlpha(c)) {
				return false
			}
		case c == '\n':
			return false
		}
	}
	return true
}
