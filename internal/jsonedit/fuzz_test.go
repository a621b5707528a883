package jsonedit

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"testing"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	"{}", "[]", "{\n}", "[ ]", `{"a": 1}`, "{\n  \"hooks\": {\n    \"PostToolUse\": []\n  }\n}\n",
	"{\r\n\t\"a\": [\r\n\t\t1,\r\n\t\t2\r\n\t]\r\n}\r\n", `[1,2,3]`, `{"a":{"b":{"c":[{}]}}}`,
	`"\u00e9\ud83d\ude00"`, `-0.5e-3`, `{"a":1,"a":2}`, "\ufeff{}", `[{"x": "\\\"y"}]`, `{"k": [true, false, null]}`,
}

// FuzzParse checks the parser against encoding/json: what Parse accepts
// json.Valid accepts, each value's span is valid JSON on its own, and
// strings decode as encoding/json decodes them.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse(src)
		body := bytes.TrimPrefix(src, []byte("\ufeff"))
		if err != nil {
			if json.Valid(body) && utf8.Valid(body) && depth(body) < MaxDepth {
				t.Fatalf("Parse rejects valid JSON %q: %v", src, err)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("Parse accepts invalid JSON %q", src)
		}
		var walk func(v *Value)
		walk = func(v *Value) {
			span := src[v.Start:v.End]
			if !json.Valid(span) {
				t.Fatalf("span %q of a %s is not JSON", span, v.Kind)
			}
			if v.Kind == String {
				var s string
				if err := json.Unmarshal(span, &s); err != nil || s != v.Str {
					t.Fatalf("string %q decoded as %q; encoding/json: %q, %v", span, v.Str, s, err)
				}
			}
			for _, m := range v.Members {
				if src[m.KeyStart] != '"' {
					t.Fatalf("member %q does not start at a quote", m.Key)
				}
				walk(m.Value)
			}
			for _, e := range v.Elems {
				walk(e)
			}
		}
		walk(d.Root)
	})
}

func depth(b []byte) int {
	d, maxD := 0, 0
	inStr, esc := false, false
	for _, c := range b {
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && (c == '[' || c == '{'):
			d++
			maxD = max(maxD, d)
		case !inStr && (c == ']' || c == '}'):
			d--
		}
	}
	return maxD
}

// blankEmpty finds an empty container holding white space: the one case
// where removing what was added gives "{}" or "[]", not the original
// bytes.
var blankEmpty = regexp.MustCompile(`[\[{][ \t\r\n]+[\]}]`)

// FuzzEdit adds a member (or an element) to every object (array) of a
// document and removes it again: the result of adding parses, means the
// original plus the addition, and removing gives back the original bytes.
func FuzzEdit(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), "hooks")
	}
	f.Fuzz(func(t *testing.T, src []byte, key string) {
		d, err := Parse(src)
		if err != nil || !utf8.ValidString(key) {
			return
		}
		var containers []*Value
		var walk func(v *Value)
		walk = func(v *Value) {
			if v.Kind == Object || v.Kind == Array {
				containers = append(containers, v)
			}
			for _, c := range children(v) {
				walk(c)
			}
		}
		walk(d.Root)
		for i, c := range containers {
			if i > 20 {
				break
			}
			var e Edit
			if c.Kind == Object {
				e, err = d.AddMember(c, key, ours)
			} else {
				e, err = d.AppendElem(c, ours)
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := Apply(src, e)
			if err != nil {
				t.Fatal(err)
			}
			d2, err := Parse(out)
			if err != nil {
				t.Fatalf("adding to %q gives invalid JSON %q: %v", src[c.Start:c.End], out, err)
			}
			// the container in d2 starts where it did in d (edits come after its start)
			var c2 *Value
			var find func(v *Value)
			find = func(v *Value) {
				if v.Start == c.Start && (v.Kind == Object || v.Kind == Array) && c2 == nil {
					c2 = v
				}
				for _, x := range children(v) {
					find(x)
				}
			}
			find(d2.Root)
			if c2 == nil {
				t.Fatalf("container at %d lost in %q", c.Start, out)
			}
			var added *Value
			if c2.Kind == Object {
				added = c2.Members[len(c2.Members)-1].Value
				if c2.Members[len(c2.Members)-1].Key != key {
					t.Fatalf("last member is %q; want %q", c2.Members[len(c2.Members)-1].Key, key)
				}
			} else {
				added = c2.Elems[len(c2.Elems)-1]
			}
			var got hook
			if err := json.Unmarshal(out[added.Start:added.End], &got); err != nil || !reflect.DeepEqual(got, ours) {
				t.Fatalf("added %q; want %+v (%v)", out[added.Start:added.End], ours, err)
			}
			if c2.Kind == Object {
				e, err = d2.RemoveMember(c2, len(c2.Members)-1)
			} else {
				e, err = d2.RemoveElem(c2, len(c2.Elems)-1)
			}
			if err != nil {
				t.Fatal(err)
			}
			back, err := Apply(out, e)
			if err != nil {
				t.Fatal(err)
			}
			if len(children(c)) == 0 && blankEmpty.Match(src[c.Start:c.End]) {
				if _, err := Parse(back); err != nil {
					t.Fatalf("removing gives invalid JSON %q", back)
				}
				continue
			}
			if !bytes.Equal(back, src) {
				t.Fatalf("add then remove changed\n%q\ninto\n%q", src, back)
			}
		}
	})
}
