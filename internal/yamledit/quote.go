package yamledit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// QuoteString renders s as a YAML string scalar: plain when that reads
// back as the same string (in a flow collection when flow), otherwise
// double-quoted.
func QuoteString(s string, flow bool) string {
	if PlainSafe(s, flow) {
		return s
	}
	return QuoteDouble(s)
}

// QuoteDouble renders s as a double-quoted YAML scalar: JSON escapes
// (valid YAML), and \u escapes for what JSON leaves as it is but YAML
// does not allow in a file (DEL, the C1 controls, U+FFFE, U+FFFF) or
// reads as a line break that folds into a space (NEL).
func QuoteDouble(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := strings.TrimRight(b.String(), "\n")
	if !strings.ContainsFunc(out, notPrintable) {
		return out
	}
	var e strings.Builder
	for _, r := range out {
		if notPrintable(r) {
			fmt.Fprintf(&e, "\\u%04x", r)
			continue
		}
		e.WriteRune(r)
	}
	return e.String()
}

// notPrintable reports whether r, left unescaped by JSON, must be escaped
// in a double-quoted YAML scalar: outside YAML's printable characters, or
// NEL, which is printable but a line break there (JSON already escapes
// U+2028 and U+2029).
func notPrintable(r rune) bool {
	return r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0xfffe || r == 0xffff
}

// QuoteLike renders a new string value in the quoting style of the value
// it replaces, so that a value the author wrote in quotes stays in quotes.
// ok is false for other values and styles.
func QuoteLike(old *yaml.Node, v any) (string, bool) {
	s, isStr := v.(string)
	if !isStr || old == nil || old.Kind != yaml.ScalarNode {
		return "", false
	}
	switch {
	case old.Style&yaml.DoubleQuotedStyle != 0:
		return QuoteDouble(s), true
	case old.Style&yaml.SingleQuotedStyle != 0 && singleSafe(s):
		return "'" + strings.ReplaceAll(s, "'", "''") + "'", true
	case old.Style&yaml.SingleQuotedStyle != 0:
		return QuoteDouble(s), true // not writable single-quoted: double quotes
	}
	return "", false
}

// singleSafe reports whether s reads back unchanged from a one-line
// single-quoted YAML scalar.
func singleSafe(s string) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return s == ""
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff {
			return false
		}
	}
	return true
}

// PlainSafe reports whether s can be written as a plain scalar that reads
// back as the same string.
func PlainSafe(s string, flow bool) bool {
	if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, "\n\r\t\x00\"'\\`") {
		return false
	}
	if strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>%@") {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	if flow && strings.ContainsAny(s, ",[]{}") {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff {
			return false
		}
	}
	// read back as a string scalar, tag included ("<<" is a string to a
	// map but the merge key to YAML)
	readsBack := func(doc string, item bool) bool {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(doc), &n); err != nil || len(n.Content) != 1 {
			return false
		}
		_, v := Lookup(n.Content[0], "k")
		if v != nil && item {
			if v.Kind != yaml.SequenceNode || len(v.Content) != 1 {
				return false
			}
			v = v.Content[0]
		}
		return v != nil && v.Kind == yaml.ScalarNode && v.Tag == "!!str" && v.Value == s
	}
	return readsBack("k: "+s, false) && (!flow || readsBack("k: ["+s+"]", true))
}
