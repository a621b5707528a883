package longtest

import "testing"

func TestEnabled(t *testing.T) {
	for _, tc := range []struct {
		long, ci string
		want     bool
	}{
		{"", "", false},
		{"1", "", true},
		{"true", "", true},
		{"", "true", true},
		{"0", "true", false},
		{"", "false", false},
		{"junk", "", false},
	} {
		t.Setenv(Env, tc.long)
		t.Setenv("CI", tc.ci)
		if got := Enabled(); got != tc.want {
			t.Errorf("%s=%q CI=%q: Enabled() = %v, want %v", Env, tc.long, tc.ci, got, tc.want)
		}
	}
}

func TestSeeds(t *testing.T) {
	t.Setenv(Env, "0")
	if got := Seeds(6, 2); got != 2 {
		t.Errorf("short: Seeds(6, 2) = %d, want 2", got)
	}
	if got := Seeds(6, 0); got != 1 {
		t.Errorf("short: Seeds(6, 0) = %d, want 1", got)
	}
	t.Setenv(Env, "1")
	if got := Seeds(6, 2); got != 6 {
		t.Errorf("long: Seeds(6, 2) = %d, want 6", got)
	}
}
