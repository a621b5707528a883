package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/schema"
)

// deliberate lists fixture memories that git-memcite parses but that the
// schema rejects on purpose: they test how verification reports nonsense.
var deliberate = map[string]string{
	"verify_reasons.txtar:.serena/memories/reasons.md": "line: 0 and path: \"\" are stale citations the verifier must report",
}

func compile(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.Memory))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("memory.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("memory.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type memory struct {
	name string // where it comes from
	src  []byte
}

// memories returns every .md file of the testscript fixtures and the
// repository's own memories.
func memories(t *testing.T) []memory {
	t.Helper()
	var out []memory
	scripts, err := filepath.Glob(filepath.Join("..", "testdata", "script", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range scripts {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".md") && !strings.EqualFold(filepath.Base(f.Name), "readme.md") {
				out = append(out, memory{filepath.Base(p) + ":" + f.Name, f.Data})
			}
		}
	}
	err = filepath.WalkDir(filepath.Join("..", ".serena", "memories"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		out = append(out, memory{p, data})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 10 {
		t.Fatalf("only %d memories found", len(out))
	}
	return out
}

// frontmatter returns the YAML between the --- fences, as JSON, or false
// when there is none or it is not YAML.
func frontmatter(src []byte) (any, bool) {
	lines := strings.SplitAfter(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return nil, false
	}
	var y strings.Builder
	for _, l := range lines[1:] {
		if t := strings.TrimRight(l, " \t\n"); t == "---" || t == "..." {
			var v any
			if err := yaml.Unmarshal([]byte(y.String()), &v); err != nil {
				return nil, false
			}
			b, err := json.Marshal(jsonable(v))
			if err != nil {
				return nil, false
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			return inst, err == nil
		}
		y.WriteString(l)
	}
	return nil, false
}

// jsonable turns YAML values (timestamps, maps with any keys) into JSON.
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
	case map[any]any:
		m := map[string]any{}
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
	case time.Time:
		return x.Format(time.RFC3339)
	}
	return v
}

// TestSchemaAgreesWithParser: a memory git-memcite reads without error or
// warning is valid; one it rejects or warns about is not.
func TestSchemaAgreesWithParser(t *testing.T) {
	s := compile(t)
	valid, invalid := 0, 0
	for _, m := range memories(t) {
		inst, ok := frontmatter(m.src)
		if !ok || !utf8.Valid(m.src) {
			continue // no frontmatter, YAML or an encoding the schema cannot see
		}
		f, perr := memfile.Parse(m.name, m.src)
		clean := perr == nil && len(f.Warnings) == 0
		verr := s.Validate(inst)
		switch {
		case clean && verr != nil:
			if why, ok := deliberate[m.name]; ok {
				t.Logf("%s: rejected as intended (%s)", m.name, why)
				continue
			}
			t.Errorf("%s: git-memcite reads it cleanly but the schema rejects it: %v", m.name, verr)
		case !clean && verr == nil:
			why := fmt.Sprint(perr)
			if perr == nil {
				why = f.Warnings[0].String()
			}
			t.Errorf("%s: the schema accepts it but git-memcite does not (%s)", m.name, why)
		case clean:
			valid++
		default:
			invalid++
		}
	}
	if valid < 5 || invalid < 3 {
		t.Errorf("only %d valid and %d invalid memories checked", valid, invalid)
	}
}

// TestSchemaCases pins decisions of the schema.
func TestSchemaCases(t *testing.T) {
	s := compile(t)
	for _, tc := range []struct {
		yaml  string
		valid bool
	}{
		{"id: a\ncitations:\n  - path: a.go\n    line: 3\n    snippet: x\n", true},
		{"citations:\n  - a.go:3-5\n  - https://example.com\n", true},
		{"citations: a.go:3\n", true},
		{"citations:\n  - path: a.go\n    line: \"3-5\"\n", true},
		{"citations:\n  - path: a.go\n    line: 3\n    line_end: 9\n", true},
		{"links:\n  - related: b\n  - link_type: supersedes\n    target_id: c\n", true},
		{"confidence: 0.8\nexempt: false\ntags: [a, b]\nextra: kept\n", true},
		{"citations:\n  - path: a.go\n    commit: 0123456789abcdef0123456789abcdef01234567\n", true},
		{"citations:\n  - line: 3\n", false},
		{"citations:\n  - path: a.go\n    line: 3.5\n", false},
		{"citations:\n  path: a.go\n", false},
		{"citations:\n  - path: a.go\n    line_end: 9\n", false},
		{"citations:\n  - path: a.go\n    commit: abc\n", false},
		{"confidence: 2\n", false},
		{"confidence: high\n", false},
		{"tags: one\n", false},
		{"links:\n  - frobs: x\n", false},
		{"exempt: maybe\n", false},
		{"citations:\n  - path: a.go\n    lines: 3\n", false},
		{"citations:\n  - path: a.go\n    snipet: x\n", false},
		{"citations:\n  - paht: a.go\n    path: b.go\n", false},
		{"citations:\n  - path: a.go\n    owner: me\n", false},
		{"citations:\n  - path: a.go\n    x-owner: me\n    note: why\n", true},
		{"citations:\n  - path: 'src\\a.go'\n", false},
		{"citations:\n  - 'src\\a.go:3'\n", false},
		{"citations:\n  - ' '\n", false},
	} {
		inst, ok := frontmatter([]byte("---\n" + tc.yaml + "---\n"))
		if !ok {
			t.Fatalf("bad case %q", tc.yaml)
		}
		err := s.Validate(inst)
		if (err == nil) != tc.valid {
			t.Errorf("%q: valid=%v, want %v (%v)", tc.yaml, err == nil, tc.valid, err)
		}
		// the parser agrees
		f, perr := memfile.Parse("case.md", []byte("---\n"+tc.yaml+"---\n"))
		if clean := perr == nil && len(f.Warnings) == 0; clean != tc.valid {
			t.Errorf("%q: memfile reads it clean=%v, schema says %v", tc.yaml, clean, tc.valid)
		}
	}
}
