package outcome

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want Kind
	}{
		{nil, OK},
		{errors.New("boom"), Failed},
		{context.Canceled, Interrupted},
		{fmt.Errorf("verify: %w", context.Canceled), Interrupted},
		{Reported(Stale), Stale},
		{fmt.Errorf("install: %w", Reported(Refused)), Refused},
		{With(HookBlocked, errors.New("blocked")), HookBlocked},
		{Usagef("bad %s", "flag"), Usage},
	} {
		if got := Of(tc.err); got != tc.want {
			t.Errorf("Of(%v) = %s, want %s", tc.err, got, tc.want)
		}
	}
	if !Is(Reported(DoctorProblem), DoctorProblem) || Is(nil, DoctorProblem) {
		t.Error("Is does not match Of")
	}
	if got := Usagef("bad %s", "flag").Error(); got != "bad flag" {
		t.Errorf("Usagef's message: %q", got)
	}
}

func TestEveryKindIsNamed(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range All() {
		name := k.String()
		if name == "" || strings.HasPrefix(name, "outcome(") || seen[name] {
			t.Errorf("outcome %d is named %q", int(k), name)
		}
		seen[name] = true
	}
	if Kind(len(All())).String() != fmt.Sprintf("outcome(%d)", len(All())) {
		t.Error("a kind past the last has a name")
	}
}
