package progress

import (
	"context"
	"testing"
)

func TestCounter(t *testing.T) {
	var none *Counter
	none.Set("x", 3) // a context without a counter: no-ops
	none.Add(1)
	if w, d, n := From(context.Background()).Get(); w != "" || d != 0 || n != 0 {
		t.Errorf("no counter: %q %d %d", w, d, n)
	}
	c := &Counter{}
	ctx := With(context.Background(), c)
	From(ctx).Set("memories", 10)
	From(ctx).Add(3)
	From(ctx).Add(1)
	if w, d, n := c.Get(); w != "memories" || d != 4 || n != 10 {
		t.Errorf("got %q %d/%d", w, d, n)
	}
}
