package hookrun

import (
	"reflect"
	"testing"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name string
		hook string
		args []string
		env  map[string]string
		want []string
	}{
		{"git passes args", "post-merge", []string{"0"}, map[string]string{"PRE_COMMIT_IS_SQUASH_MERGE": "1"}, []string{"0"}},
		{"pre-commit framework squash", "post-merge", nil, map[string]string{"PRE_COMMIT_IS_SQUASH_MERGE": "1"}, []string{"1"}},
		{"prek squash", "post-merge", nil, map[string]string{"PRE_COMMIT_SQUASH_MERGE": "1"}, []string{"1"}},
		{"framework rewrite", "post-rewrite", nil, map[string]string{"PRE_COMMIT_REWRITE_COMMAND": "rebase"}, []string{"rebase"}},
		{"no args at all", "post-rewrite", nil, nil, nil},
		{"pre-commit takes none", "pre-commit", nil, map[string]string{"PRE_COMMIT_REWRITE_COMMAND": "rebase"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Resolve(tc.hook, tc.args, envOf(tc.env))
			if !reflect.DeepEqual(got.Args, tc.want) || got.Hook != tc.hook {
				t.Errorf("Resolve = %+v; want args %v", got, tc.want)
			}
		})
	}
}

func TestSkipped(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{nil, false},
		{map[string]string{"MEMCITE": "0"}, true},
		{map[string]string{"MEMCITE": "off"}, true},
		{map[string]string{"MEMCITE": "FALSE"}, true},
		{map[string]string{"MEMCITE": "1"}, false},
		{map[string]string{"SKIP": "memcite"}, true},
		{map[string]string{"SKIP": "lint, memcite"}, true},
		{map[string]string{"SKIP": "memcite-pre-commit"}, true},
		{map[string]string{"SKIP": "memcite-post-merge"}, false},
		{map[string]string{"SKIP": "memcite-all"}, false},
		{map[string]string{"SKIP": "notmemcite"}, false},
	}
	for _, tc := range tests {
		if _, got := Skipped("pre-commit", envOf(tc.env)); got != tc.want {
			t.Errorf("Skipped(%v) = %v; want %v", tc.env, got, tc.want)
		}
	}
}

func TestPreContext(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Context
	}{
		{"git commit, own script", map[string]string{"GIT_INDEX_FILE": ".git/index"}, InCommit},
		{"by hand", nil, InCommit},
		{"git commit through the framework", map[string]string{"PRE_COMMIT": "1", "GIT_INDEX_FILE": ".git/index"}, InCommit},
		{"git merge through the framework", map[string]string{"PRE_COMMIT": "1", "GIT_INDEX_FILE": "/r/.git/index"}, InCommit},
		{"pre-commit run --all-files", map[string]string{"PRE_COMMIT": "1"}, WholeTree},
		{"pre-commit run --from-ref --to-ref", map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_FROM_REF": "a", "PRE_COMMIT_TO_REF": "b"}, WholeTree},
		{"pre-push stage", map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_FROM_REF": "a", "PRE_COMMIT_TO_REF": "b", "PRE_COMMIT_REMOTE_NAME": "origin"}, OtherStage},
		{"post-merge stage", map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_IS_SQUASH_MERGE": "0"}, OtherStage},
		{"prek post-merge", map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_SQUASH_MERGE": "0"}, OtherStage},
		{"post-rewrite stage", map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_REWRITE_COMMAND": "rebase"}, OtherStage},
		{"post-checkout stage", map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_CHECKOUT_TYPE": "1", "PRE_COMMIT_FROM_REF": "a", "PRE_COMMIT_TO_REF": "b"}, OtherStage},
		{"PRE_COMMIT not 1", map[string]string{"PRE_COMMIT": "0"}, InCommit},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := PreContext(envOf(tc.env)); got != tc.want {
				t.Errorf("PreContext(%v) = %v; want %v", tc.env, got, tc.want)
			}
		})
	}
}
