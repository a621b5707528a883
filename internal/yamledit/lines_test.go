package yamledit

import (
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestBlockEnd covers the rules the two editors this package replaces
// disagreed on, each resolved the way YAML reads the lines: memfile
// counted a tab as indentation and took a comment's indentation for
// structure; hookinstall's editor took every '#' line for a comment, even
// in a block scalar.
func TestBlockEnd(t *testing.T) {
	tests := []struct {
		name      string
		doc       string
		start     int
		col       int
		seqAtCol  bool
		want      int
		mustParse bool
	}{
		{"deeper lines", "k:\n  a: 1\n  b: 2\nn: 3\n", 0, 0, false, 3, true},
		{"a key alone", "k: 1\nn: 2\n", 0, 0, false, 1, true},
		{"to the end", "k:\n  a: 1\n", 0, 0, false, 2, true},
		{"an indentless sequence", "k:\n- a\n- b\nn: 1\n", 0, 0, true, 3, true},
		{"an indentless sequence without seqAtCol", "k:\n- a\nn: 1\n", 0, 0, false, 1, true},
		// a comment's indentation is not structure
		{"a trailing indented comment stays outside", "k:\n  a: 1\n  # about n\nn: 2\n", 0, 0, false, 2, true},
		{"a comment at the margin inside the block", "k:\n  - a\n# note\n  - b\nn: 1\n", 0, 0, false, 4, true},
		{"trailing blank lines stay outside", "k:\n  a: 1\n\n\nn: 2\n", 0, 0, false, 2, true},
		{"an item and the comment after it", "l:\n  - a: 1\n    # about b\n  - b: 2\n", 1, 2, false, 2, true},
		// a line of a block scalar is content, whatever it starts with
		{"a '#' line in a block scalar", "k: |\n  a\n  # not a comment\nn: 1\n", 0, 0, false, 3, true},
		{"a block scalar with a header comment", "k: >- # folded\n  a\n  # b\nn: 1\n", 0, 0, false, 3, true},
		{"a block scalar in an item", "l:\n  - run: |\n      a\n      # b\n  - run: c\n", 1, 2, false, 4, true},
		{"a block scalar's trailing blank lines", "k: |\n  a\n\nn: 1\n", 0, 0, false, 2, true},
		// spaces past the scalar's indentation are content: "a\n  \n"
		{"a block scalar's line of spaces", "k: >\n a\n   \nn: 1\n", 0, 0, false, 3, true},
		// a header alone on its line: the content may sit at its indentation
		{"a header on the line below its key", "k:\n  >\n  a\n  # b\nn: 1\n", 0, 0, false, 4, true},
		{"content left of its header", "k:\n  >\n a\n #b\nn: 1\n", 0, 0, false, 4, true},
		{"a '|' inside a plain value is no header", "k: a |\n  # c\nn: 1\n", 0, 0, false, 1, false},
		// a tab is not indentation: a tab-led line cannot start a node
		{"a tab-led continuation at the margin", "k: 'a\n\tb'\nn: 1\n", 0, 0, false, 2, true},
		{"a tab-led continuation in an item", "l:\n  - p: \"a\n\tb\"\n  - p: c\n", 1, 2, false, 3, true},
		{"spaces then a tab", "k: 'a\n  \tb'\nn: 1\n", 0, 0, false, 2, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.mustParse {
				var v any
				if err := yaml.Unmarshal([]byte(tc.doc), &v); err != nil {
					t.Fatalf("the case is not YAML: %v", err)
				}
			}
			txt := SplitText([]byte(tc.doc))
			if got := txt.BlockEnd(tc.start, tc.col, tc.seqAtCol); got != tc.want {
				t.Errorf("BlockEnd(%d, %d) = %d, want %d", tc.start, tc.col, got, tc.want)
			}
		})
	}
}

func TestIndent(t *testing.T) {
	for line, want := range map[string]int{"a": 0, "  a": 2, "\ta": 0, "  \ta": 2, "    ": 4} {
		if got := Indent(line); got != want {
			t.Errorf("Indent(%q) = %d, want %d", line, got, want)
		}
	}
	for line, want := range map[string]bool{"\ta": true, "  \tb": true, "  a\t": false, "\t# c": false, "\t": false} {
		if got := TabLed(line); got != want {
			t.Errorf("TabLed(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestCommentStart(t *testing.T) {
	for _, tc := range []struct {
		line string
		want int
	}{
		{"# c", 0},
		{"  # c", 2},
		{"k: v # c", 5},
		{"k: v\t# c", 5},
		{"k: a#b", -1},
		{"k: 'a # b'", -1},
		{"k: 'a # b' # c", 11},
		{`k: "a \" # b" # c`, 14},
		{"k: 'it''s # x' # c", 15},
		{"k: it's # c", 8},
		{"- 'x # y' # c", 10},
		{"k: 'runs on # to the next line", -1},
		{"k: [a, '#', b] # c", 15},
		{"k: {a: '# x'} # c", 14},
		{"'k # x': v # c", 11},
		{"k: a - 'b # c'", 10},
		{"k: |", -1},
		{"k: ! 'a #b' # c", 12},
		{"k: !!str &x 'a #b' # c", 19},
	} {
		if got := CommentStart(tc.line); got != tc.want {
			t.Errorf("CommentStart(%q) = %d, want %d", tc.line, got, tc.want)
		}
	}
}

func TestOpensBlockScalar(t *testing.T) {
	for line, want := range map[string]bool{
		"k: |": true, "k: >-": true, "k: |2+": true, "- |": true, "  - run: >": true, "|": true,
		"k: | # c": true, "k: !!str |": true, "k: &a |": true,
		"0#: |+1": true, "a#b: >": true, "k: |+#c": true,
		"k: a |": false, "k: 'a |'": false, "k: v": false, "# k: |": false, "k: |x": false, "k: a#|": false,
	} {
		if got := OpensBlockScalar(line); got != want {
			t.Errorf("OpensBlockScalar(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestBlockHeaderKeep: the keep chomping indicator is read from the
// header, not from a '|' or '+' in the key or a comment.
func TestBlockHeaderKeep(t *testing.T) {
	for line, want := range map[string]bool{
		"k: |+": true, "k: >2+": true, "k: |+1": true, "0#: |+1": true, "k: |+#c|": true, "a|b: |+ # c": true,
		"k: |": false, "k: |-": false, "k: |2": false, "a+|: |": false, "k: |#c+": false, "k: | # +": false,
	} {
		if got, _, ok := blockHeaderAlone(line); !ok || got != want {
			t.Errorf("blockHeaderAlone(%q) = %v, %v, want %v, true", line, got, ok, want)
		}
	}
}

// TestFlowEndCommentAtLineStart: a '#' at the start of a line in a flow
// collection starts a comment (memfile's scanner took it for text, and a
// bracket in the comment for the end of the collection).
func TestFlowEndCommentAtLineStart(t *testing.T) {
	src := []byte("[a,\n# not ] the end\n b]\nk: 1\n")
	var v map[string]any
	if err := yaml.Unmarshal([]byte("x: "+string(src[:23])), &v); err != nil || !reflect.DeepEqual(v["x"], []any{"a", "b"}) {
		t.Fatalf("the case is not a flow sequence of a and b: %v %v", v, err)
	}
	end, err := FlowEnd(src, 0, '[', ']')
	if err != nil || end != 23 {
		t.Errorf("FlowEnd = %d, %v; want 23", end, err)
	}
	for _, tc := range []string{"[a, '# ]', b]", `[a, "# ]", b]`, "[a, b # ]\n]", "[a, {b: [c]}]"} {
		end, err := FlowEnd([]byte(tc), 0, '[', ']')
		if err != nil || end != len(tc) {
			t.Errorf("FlowEnd(%q) = %d, %v; want %d", tc, end, err, len(tc))
		}
	}
	if _, err := FlowEnd([]byte("[a, b"), 0, '[', ']'); err == nil {
		t.Error("an unterminated flow sequence has an end")
	}
}

func TestTextInsertRemove(t *testing.T) {
	for _, src := range []string{"", "a: 1\n", "a: 1", "a: 1\r\nb: 2\r\n", "a: 1\r\nb: 2"} {
		for at := 0; at <= len(SplitText([]byte(src)).Lines); at++ {
			txt := SplitText([]byte(src))
			txt.Insert(at, []string{"x: 1\n", "y: 2\n"})
			out := string(txt.Bytes())
			if strings.Contains(src, "\r\n") && strings.Count(out, "\r\n") != strings.Count(out, "\n") {
				t.Errorf("%q: inserting at %d mixed line ends: %q", src, at, out)
			}
			i := txt.Find([]string{"x: 1", "y: 2"}, 0)
			if i != at {
				t.Fatalf("%q: inserted at %d, found at %d", src, at, i)
			}
			txt.Remove(i, i+2)
			if got := string(txt.Bytes()); got != src {
				t.Errorf("%q: insert and remove at %d gave %q", src, at, got)
			}
		}
	}
}

func TestUnitIndent(t *testing.T) {
	for src, want := range map[string]int{"a:\n    b: 1\n": 4, "a: 1\n": 2, "a:\n   b:\n      c: 1\n# x\n": 3, "a:\n # c\n  b: 1\n": 2} {
		if got := SplitText([]byte(src)).UnitIndent(); got != want {
			t.Errorf("UnitIndent(%q) = %d, want %d", src, got, want)
		}
	}
}

// TestRemovalEnd: removing a block takes the blank lines after it, and
// the comments indented past a block scalar open before it (left, they
// would become its content); other comments stay.
func TestRemovalEnd(t *testing.T) {
	for _, tc := range []struct {
		name  string
		doc   string
		start int
		want  int
	}{
		{"a comment under the key, no scalar before", "a: 1\nb: 2\n  # about c\nc: 3\n", 1, 2},
		{"a comment a scalar before would take", "a: |\n  x\nb: 2\n  # about c\nc: 3\n", 2, 4},
		{"the same at the end", "0: |\n1: \n #", 1, 3},
		{"a margin comment stays", "a: |\n  x\nb: 2\n# about c\nc: 3\n", 2, 3},
		{"blank lines go", "a: 1\nb: 2\n\n\nc: 3\n", 1, 4},
	} {
		txt := SplitText([]byte(tc.doc))
		if got := txt.RemovalEnd(tc.start, 0, true); got != tc.want {
			t.Errorf("%s: RemovalEnd(%d) = %d, want %d", tc.name, tc.start, got, tc.want)
		}
	}
}
