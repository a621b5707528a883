package vcache

import "testing"

func TestOffReason(t *testing.T) {
	for _, tc := range []struct {
		flag bool
		env  string
		want string
	}{
		{false, "", ""},
		{false, "on", ""},
		{false, "1", ""},
		{true, "", "--no-cache"},
		{true, "off", "--no-cache"},
		{false, "off", "MEMCITE_CACHE=off"},
		{false, "OFF", "MEMCITE_CACHE=OFF"},
		{false, "0", "MEMCITE_CACHE=0"},
		{false, "false", "MEMCITE_CACHE=false"},
		{false, "No", "MEMCITE_CACHE=No"},
	} {
		if got := OffReason(tc.flag, tc.env); got != tc.want {
			t.Errorf("OffReason(%v, %q) = %q, want %q", tc.flag, tc.env, got, tc.want)
		}
	}
}
