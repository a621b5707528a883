package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestActionYAML checks that action.yml passes every input to the run
// script, runs the scripts that exist, and that the workflows use it.
func TestActionYAML(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
			Default     string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				Run  string            `yaml:"run"`
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Errorf("runs.using %q, want composite", action.Runs.Using)
	}
	env := map[string]string{}
	var scripts []string
	for _, s := range action.Runs.Steps {
		for k, v := range s.Env {
			env[k] = v
		}
		if i := strings.Index(s.Run, "$GITHUB_ACTION_PATH/"); i >= 0 {
			p := strings.Trim(strings.Fields(s.Run[i+len("$GITHUB_ACTION_PATH/"):])[0], `"`)
			scripts = append(scripts, p)
		}
	}
	if len(scripts) != 2 {
		t.Fatalf("scripts run: %v, want install.sh and run.sh", scripts)
	}
	for _, p := range scripts {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("action.yml runs %s: %v", p, err)
		}
	}
	run, err := os.ReadFile(filepath.Join(root, "scripts", "action", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range action.Inputs {
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
		if name == "go-version" {
			continue // used by setup-go
		}
		v := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		if env[v] != "${{ inputs."+name+" }}" {
			t.Errorf("input %s is not passed as %s (env: %q)", name, v, env[v])
		}
		if !strings.Contains(string(run), v) {
			t.Errorf("run.sh does not read %s", v)
		}
	}
	if action.Inputs["format"].Default != "github" {
		t.Errorf("format defaults to %q, want github", action.Inputs["format"].Default)
	}
	for _, wf := range []string{"memcite.yml", "memcite-sarif.yml"} {
		b, err := os.ReadFile(filepath.Join(root, ".github", "workflows", wf))
		if err != nil {
			t.Fatal(err)
		}
		var w map[string]any
		if err := yaml.Unmarshal(b, &w); err != nil {
			t.Fatalf("%s: %v", wf, err)
		}
		if !strings.Contains(string(b), "uses: ./") {
			t.Errorf("%s does not run the action of this repository", wf)
		}
	}
}

// TestActionInstall runs the action's build step as the runner does.
func TestActionInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds git-memcite")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	ghPath := filepath.Join(tmp, "github_path")
	cmd := exec.Command("sh", filepath.Join(root, "scripts", "action", "install.sh"))
	cmd.Env = append(os.Environ(), "GITHUB_ACTION_PATH="+root, "RUNNER_TEMP="+tmp, "GITHUB_PATH="+ghPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install.sh: %v\n%s", err, out)
	}
	b, err := os.ReadFile(ghPath)
	if err != nil {
		t.Fatal(err)
	}
	bin := strings.TrimSpace(string(b))
	if bin != filepath.Join(tmp, "git-memcite", "bin") {
		t.Errorf("GITHUB_PATH got %q", bin)
	}
	out, err := exec.Command(filepath.Join(bin, "git-memcite"), "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "git-memcite ") {
		t.Errorf("built binary: %v %s", err, out)
	}
}
