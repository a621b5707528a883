package jsonedit

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"empty", "", "line 1, column 1: unexpected end of input: a value is missing"},
		{"trailing comma", "{\"a\": 1,}", "line 1, column 9: unexpected '}': a member name (a string) is expected"},
		{"comment", "{\n  // x\n}", "line 2, column 3: unexpected '/': a member name (a string) is expected"},
		{"two values", "{} {}", "line 1, column 4: unexpected '{' after the document"},
		{"leading zero", "[01]", "line 1, column 3: unexpected '1': ',' or ']' is expected"},
		{"bad escape", `["\x"]`, `line 1, column 3: invalid escape \x in a string`},
		{"control in string", "[\"a\tb\"]", "line 1, column 4: unexpected byte 0x09 in a string (control characters must be escaped)"},
		{"bad utf-8", "[\"\xff\"]", "line 1, column 3: invalid UTF-8 in a string"},
		{"unclosed", `{"a": [1, 2`, "line 1, column 12: unexpected end of input: the array is not closed"},
		{"single quotes", `{'a': 1}`, "line 1, column 2: unexpected '\\'': a member name (a string) is expected"},
		{"too deep", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), "nested deeper than 512 levels"},
		{"bare word", "nul", "line 1, column 1: unexpected 'n': a value is expected"},
		{"exponent", "1e", "line 1, column 3: invalid number: a digit is expected in the exponent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("got %v; want a syntax error", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %q; want %q", err, tc.want)
			}
		})
	}
}

func TestParseSpans(t *testing.T) {
	src := "\ufeff{\"a\\u0041\": [1, -2.5e+3, true, null, \"x\\n\"], \"b\": {}}\n"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a := d.Root.Get("aA")
	if a == nil || a.Kind != Array || len(a.Elems) != 5 {
		t.Fatalf("aA = %+v", a)
	}
	var got []string
	for _, e := range a.Elems {
		got = append(got, e.Kind.String()+"="+src[e.Start:e.End])
	}
	want := []string{"number=1", "number=-2.5e+3", "boolean=true", "null=null", `string="x\n"`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q; want %q", got, want)
	}
	if a.Elems[4].Str != "x\n" {
		t.Errorf("decoded string %q", a.Elems[4].Str)
	}
	if b := d.Root.Get("b"); b == nil || b.Kind != Object || src[b.Start:b.End] != "{}" {
		t.Errorf("b = %+v", b)
	}
	if d.Root.Get("missing") != nil || d.Root.Index("b") != 1 {
		t.Error("Get or Index wrong")
	}
}

// hook is a value as the agent settings add it.
type hook struct {
	Matcher string `json:"matcher"`
	Hooks   []cmd  `json:"hooks"`
}

type cmd struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

var ours = hook{Matcher: "Read", Hooks: []cmd{{"command", "run"}}}

func TestAppendAndRemove(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"two spaces", "{\n  \"list\": [\n    {\"a\": 1}\n  ]\n}\n",
			"{\n  \"list\": [\n    {\"a\": 1},\n    {\n      \"matcher\": \"Read\",\n      \"hooks\": [\n        {\n          \"type\": \"command\",\n          \"command\": \"run\"\n        }\n      ]\n    }\n  ]\n}\n"},
		{"tabs and CRLF", "{\r\n\t\"list\": [\r\n\t\t1\r\n\t]\r\n}",
			"{\r\n\t\"list\": [\r\n\t\t1,\r\n\t\t{\r\n\t\t\t\"matcher\": \"Read\",\r\n\t\t\t\"hooks\": [\r\n\t\t\t\t{\r\n\t\t\t\t\t\"type\": \"command\",\r\n\t\t\t\t\t\"command\": \"run\"\r\n\t\t\t\t}\r\n\t\t\t]\r\n\t\t}\r\n\t]\r\n}"},
		{"one line", `{"list": [1,2]}`, `{"list": [1,2,{"matcher": "Read", "hooks": [{"type": "command", "command": "run"}]}]}`},
		{"empty in multi-line", "{\n    \"list\": []\n}",
			"{\n    \"list\": [\n        {\n            \"matcher\": \"Read\",\n            \"hooks\": [\n                {\n                    \"type\": \"command\",\n                    \"command\": \"run\"\n                }\n            ]\n        }\n    ]\n}"},
		{"empty in one line", `{"list": []}`, `{"list": [{"matcher": "Read", "hooks": [{"type": "command", "command": "run"}]}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			e, err := d.AppendElem(d.Root.Get("list"), ours)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Apply(d.Src, e)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", out, tc.want)
			}
			d2, err := Parse(out)
			if err != nil {
				t.Fatalf("result does not parse: %v", err)
			}
			list := d2.Root.Get("list")
			e, err = d2.RemoveElem(list, len(list.Elems)-1)
			if err != nil {
				t.Fatal(err)
			}
			back, _ := Apply(out, e)
			if string(back) != tc.src {
				t.Errorf("removing again gives\n%q\nwant\n%q", back, tc.src)
			}
		})
	}
}

func TestAddMember(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"after others", "{\n  \"model\": \"x\"\n}\n", "{\n  \"model\": \"x\",\n  \"k\": [\n    1\n  ]\n}\n"},
		{"empty object", "{}\n", "{\n  \"k\": [\n    1\n  ]\n}\n"},
		{"nested indent from the document", "{\n    \"a\": {}\n}", "{\n    \"a\": {\n        \"k\": [\n            1\n        ]\n    }\n}"},
		{"key escaped", `{"a": 1}`, `{"a": 1, "q\"<": [1]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			obj, key := d.Root, "k"
			if a := d.Root.Get("a"); a != nil && a.Kind == Object {
				obj = a
			} else if a != nil {
				key = `q"<`
			}
			e, err := d.AddMember(obj, key, []int{1})
			if err != nil {
				t.Fatal(err)
			}
			out, _ := Apply(d.Src, e)
			if string(out) != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", out, tc.want)
			}
			d2, err := Parse(out)
			if err != nil {
				t.Fatal(err)
			}
			obj = d2.Root
			if a := d2.Root.Get("a"); a != nil && a.Kind == Object {
				obj = a
			}
			e, _ = d2.RemoveMember(obj, len(obj.Members)-1)
			back, _ := Apply(out, e)
			if string(back) != tc.src {
				t.Errorf("removing again gives %q; want %q", back, tc.src)
			}
		})
	}
}

func TestRemoveFirst(t *testing.T) {
	src := "[\n  1,\n  2\n]"
	d, _ := Parse([]byte(src))
	e, err := d.RemoveElem(d.Root, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := Apply(d.Src, e)
	if string(out) != "[\n  2\n]" {
		t.Errorf("got %q", out)
	}
	if _, err := d.RemoveElem(d.Root, 2); err == nil {
		t.Error("removing a missing element: no error")
	}
	if _, err := d.RemoveMember(d.Root, 0); err == nil {
		t.Error("removing a member of an array: no error")
	}
}

func TestApplyOverlap(t *testing.T) {
	if _, err := Apply([]byte("abc"), Edit{0, 2, ""}, Edit{1, 3, ""}); err == nil {
		t.Error("overlapping edits: no error")
	}
	out, err := Apply([]byte("abc"), Edit{2, 2, "Y"}, Edit{0, 1, "X"})
	if err != nil || string(out) != "XbYc" {
		t.Errorf("got %q, %v", out, err)
	}
}

// decode is the value of a JSON document, for semantic comparisons.
func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %q", err, b)
	}
	return v
}

func TestAddIsSemantic(t *testing.T) {
	src := []byte(`{"z": 1, "a": [true, {"n": null}]}`)
	d, _ := Parse(src)
	e, _ := d.AddMember(d.Root, "m", ours)
	out, _ := Apply(src, e)
	got := decode(t, out).(map[string]any)
	want := decode(t, src).(map[string]any)
	want["m"] = decode(t, []byte(`{"matcher": "Read", "hooks": [{"type": "command", "command": "run"}]}`))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v; want %v", got, want)
	}
}
