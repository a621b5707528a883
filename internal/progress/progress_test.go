package progress

import "testing"

func TestCounter(t *testing.T) {
	var none *Counter
	none.Set("x", 3) // no counter given: no-ops
	none.Add(1)
	if w, d, n := none.Get(); w != "" || d != 0 || n != 0 {
		t.Errorf("no counter: %q %d %d", w, d, n)
	}
	c := &Counter{}
	c.Set("memories", 10)
	c.Add(3)
	c.Add(1)
	if w, d, n := c.Get(); w != "memories" || d != 4 || n != 10 {
		t.Errorf("got %q %d/%d", w, d, n)
	}
}
