package yamledit

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

var fuzzSeeds = []string{
	"k:\n  a: 1\n  b: 2\nn: 3\n",
	"k:\n- a\n- b\nn: 1\n",
	"k:\n  - a\n# note\n  - b\nn: 1\n",
	"k:\n  a: 1\n  # about n\nn: 2\n",
	"k: |\n  a\n  # not a comment\nn: 1\n",
	"k: >- # c\n  a\n\n  b\nn: 1\n",
	"k: |+\n  a\n\nn: 1\n",
	"k: 'a\n\tb'\nn: 1\n",
	"k: [a,\n# ]\n b]\nn: {x: 1}\n",
	"k: \"a # b\" # c\nn: it's # c\n",
	"a: 1\r\nb:\r\n  c: 2\r\n",
}

// FuzzBlockEnd: removing the lines of a top-level key's block (RemovalEnd
// from its line, at column 0) leaves a document that means the same
// without that key, and adding a key after the block (at InsertionEnd)
// one that means the same with it. Documents with content lines at the margin that are
// neither keys nor "- " items (quoted scalars continued there) are left
// out: callers find the end of such a value from its node; so are
// quoted values that run on to the next lines (where a line may start
// with '#'), and documents whose mapping carries a tag (" !t" on a line
// of its own).
func FuzzBlockEnd(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 || strings.Contains(src, "\r") || strings.Contains(src, "&") || strings.Contains(src, "*") || strings.Contains(src, "<<") {
			return
		}
		root, err := ParseMapping([]byte(src))
		if err != nil || root == nil || root.Style&yaml.TaggedStyle != 0 {
			return // a tag on the document's mapping belongs to no key's block
		}
		var whole map[string]any
		if yaml.Unmarshal([]byte(src), &whole) != nil {
			return
		}
		keyLines := map[int]bool{}
		seen := map[string]bool{}
		for i := 0; i+1 < len(root.Content); i += 2 {
			k := root.Content[i]
			if k.Kind != yaml.ScalarNode || k.Column != 1 || seen[k.Value] || strings.Contains(k.Value, "\n") {
				return
			}
			seen[k.Value] = true
			keyLines[k.Line-1] = true
		}
		txt := SplitText([]byte(src))
		for i, l := range txt.Lines {
			l = TrimEOL(l)
			if !keyLines[i] && !BlankOrComment(l) && Indent(l) == 0 && !TabLed(l) && !strings.HasPrefix(l, "- ") && l != "-" {
				return
			}
		}
		// a quoted value that runs on to the next lines is left out too
		// (a line of it may start with '#' and look like a comment):
		// callers end a value at its node (memfile's valueLastLine)
		lineStart := func(l int) int {
			n := 0
			for _, x := range txt.Lines[:l] {
				n += len(x)
			}
			return n
		}
		for i := 0; i+1 < len(root.Content); i += 2 {
			v := root.Content[i+1]
			if v.Kind != yaml.ScalarNode || v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 {
				continue
			}
			if v.Line < 1 || v.Line > len(txt.Lines) {
				return
			}
			line := TrimEOL(txt.Lines[v.Line-1])
			r := []rune(line)
			if v.Column < 1 || v.Column-1 > len(r) {
				return
			}
			at := lineStart(v.Line-1) + len(string(r[:v.Column-1]))
			end, err := ScalarEnd([]byte(src), at, v, false)
			if err != nil || end > lineStart(v.Line-1)+len(line) {
				return
			}
		}
		for i := 0; i+1 < len(root.Content); i += 2 {
			k := root.Content[i]
			end := txt.RemovalEnd(k.Line-1, 0, true)
			out := strings.Join(txt.Lines[:k.Line-1], "") + strings.Join(txt.Lines[end:], "")
			var got map[string]any
			if err := yaml.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("removing %q from\n%q\ngave\n%q: %v", k.Value, src, out, err)
			}
			if got == nil {
				got = map[string]any{}
			}
			want := map[string]any{}
			for key, v := range whole {
				if key != k.Value {
					want[key] = v
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("removing %q from\n%q\ngave\n%q: %v, want %v", k.Value, src, out, got, want)
			}
			if seen["memcite-probe"] || (len(src) > 0 && !strings.HasSuffix(src, "\n")) {
				continue
			}
			at := txt.InsertionEnd(k.Line-1, 0, true)
			out = strings.Join(txt.Lines[:at], "") + "memcite-probe: 1\n" + strings.Join(txt.Lines[at:], "")
			got = nil
			if err := yaml.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("adding a key after %q in\n%q\ngave\n%q: %v", k.Value, src, out, err)
			}
			want = map[string]any{"memcite-probe": 1}
			for key, v := range whole {
				want[key] = v
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("adding a key after %q in\n%q\ngave\n%q: %v, want %v", k.Value, src, out, got, want)
			}
		}
	})
}

// FuzzCommentStart: what CommentStart calls a comment carries no content:
// a value line cut there reads as the whole line does.
func FuzzCommentStart(f *testing.F) {
	for _, s := range []string{"v # c", "'a # b' # c", `"a \" # b"`, "it's # c", "[a, '#', b] # c", "{a: '# x'}", "a#b", "a - 'b # c'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if strings.ContainsAny(v, "\r\n") {
			return
		}
		line := "k: " + v
		c := CommentStart(line)
		if c < 0 {
			return
		}
		var whole, cut any
		if yaml.Unmarshal([]byte(line), &whole) != nil {
			return
		}
		if err := yaml.Unmarshal([]byte(line[:c]), &cut); err != nil || !reflect.DeepEqual(whole, cut) {
			t.Fatalf("%q: cut at %d (%q) reads as %#v (%v), the line as %#v", line, c, line[:c], cut, err, whole)
		}
	})
}

// FuzzTextInsertRemove: Remove undoes Insert, byte for byte.
func FuzzTextInsertRemove(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, src string, at int) {
		txt := SplitText([]byte(src))
		if at < 0 || at > len(txt.Lines) || strings.Contains(src, "\r") {
			return
		}
		block := []string{"memcite-test-a: 1\n", "memcite-test-b: 2\n"}
		txt.Insert(at, block)
		if i := txt.Find(block, at); i != at {
			t.Fatalf("inserted at %d, found at %d", at, i)
		}
		txt.Remove(at, at+len(block))
		if got := string(txt.Bytes()); got != src {
			t.Fatalf("%q: insert and remove at %d gave %q", src, at, got)
		}
	})
}

// FuzzQuoteString: a string QuoteString renders reads back as that string,
// as a mapping value and as an item of a flow sequence.
func FuzzQuoteString(f *testing.F) {
	for _, s := range []string{"plain", "a: b", "#x", "- x", "true", "123", "null", "it's", `say "hi"`, "tab\there", " lead", "a\nb", "~", "x #y", "[a]", "{b}", "a,b", "\u2028", "\u0085", "a\u0085b", "\u2029"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		for _, flow := range []bool{false, true} {
			q := QuoteString(s, flow)
			doc := "k: " + q
			if flow {
				doc = "k: [" + q + "]"
			}
			var n yaml.Node
			if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
				t.Fatalf("%q rendered as %q does not parse: %v", s, q, err)
			}
			_, v := Lookup(n.Content[0], "k")
			if flow {
				v = v.Content[0]
			}
			if v.Value != s || v.Tag != "!!str" {
				t.Fatalf("%q rendered as %q reads back as %q (%s)", s, q, v.Value, v.Tag)
			}
		}
	})
}
