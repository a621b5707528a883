package prose

import "testing"

func TestSymbolContainer(t *testing.T) {
	for in, want := range map[string]string{
		"Type.method":                    "Type",
		"pkg.Type.method":                "Type",
		"plain":                          "",
		"A::b":                           "A",
		"build_all.py::assert_no_writes": "build_all",
		"mod.sub.func":                   "sub",
	} {
		if got := symbolContainer(in); got != want {
			t.Errorf("symbolContainer(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		a, b string
		like bool // >= 0.6, the likely-rename threshold
	}{
		{"load_orders", "load_all_orders", true},
		{"getUser", "getUserById", true},
		{"parse", "parse_v2", true},
		{"load_orders", "render", false},
		{"Total", "compute", false},
	}
	for _, tt := range tests {
		if got := similarity(tt.a, tt.b) >= 0.6; got != tt.like {
			t.Errorf("similarity(%q, %q) = %.2f", tt.a, tt.b, similarity(tt.a, tt.b))
		}
	}
}
