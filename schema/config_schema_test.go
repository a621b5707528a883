package schema_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/internal/config"
	"github.com/git-memcite/git-memcite/schema"
)

// TestConfigSchemaAgrees: the schema of .memcite.yaml accepts exactly the
// files git-memcite accepts, over the fixtures and pinned cases.
func TestConfigSchemaAgrees(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.Config))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("config.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("config.json")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"full":         "dirs: [a, b]\nignore: ['**/drafts/**']\nformat: sarif\nfail_on: warning\ncolor: never\nseverity:\n  snippet-mismatch: warning\n  memcite/memory-warning: off\n",
		"empty":        "",
		"typo":         "dirz: [a]\n",
		"bad format":   "format: xml\n",
		"bad fail_on":  "fail_on: sometimes\n",
		"bad rule":     "severity:\n  nope: error\n",
		"bad level":    "severity:\n  snippet-mismatch: fatal\n",
		"dirs string":  "dirs: notes\n",
		"color always": "color: always\n",
		"agent hook":   "agent_hook: verbose\n",
		"bad agent":    "agent_hook: loud\n",
	}
	scripts, _ := filepath.Glob(filepath.Join("..", "testdata", "script", "*.txtar"))
	for _, p := range scripts {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".yaml") && !strings.Contains(f.Name, "/") {
				files[filepath.Base(p)+":"+f.Name] = string(f.Data)
			}
		}
	}
	accepted, rejected := 0, 0
	for name, src := range files {
		f, perr := config.ParseFile(config.FileName, []byte(src))
		if perr == nil {
			_, perr = config.Resolve(config.Layers{File: f, FileName: config.FileName})
		}
		var v any
		if err := yaml.Unmarshal([]byte(src), &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := json.Marshal(v)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		verr := s.Validate(inst)
		switch {
		case perr == nil && verr != nil:
			t.Errorf("%s: git-memcite accepts it, the schema does not: %v", name, verr)
		case perr != nil && verr == nil:
			t.Errorf("%s: the schema accepts it, git-memcite does not: %v", name, perr)
		case perr == nil:
			accepted++
		default:
			rejected++
		}
	}
	if accepted < 4 || rejected < 5 {
		t.Errorf("%d accepted and %d rejected: the fixtures changed?", accepted, rejected)
	}
}
