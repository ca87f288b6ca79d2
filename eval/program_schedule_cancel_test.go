package eval

import (
	"context"
	"errors"
	"testing"
)

// pollCounter is a cancelled context that counts how often it is asked.
type pollCounter struct {
	context.Context
	polls int
}

func (c *pollCounter) Err() error {
	c.polls++
	return context.Canceled
}

// A cancelled instantiation gives up inside a long loop with ctx.Err(),
// instead of running the loop to the step limit first: it polls ctx
// while running (after 65536 steps), then once more at the end.
func TestScheduleContextStopsWhenCancelled(t *testing.T) {
	m := loadTest(t, fourCPUs)
	defer func(n int64) { maxProgramSteps = n }(maxProgramSteps)
	maxProgramSteps = 1 << 20
	p, err := ParseProgramBody(m, "for i in 1 .. 1000000000 { }")
	if err != nil {
		t.Fatal(err)
	}
	for _, ranks := range []int{1, 4} {
		ctx := &pollCounter{Context: context.Background()}
		_, err := p.ScheduleContext(ctx, m, ScheduleOptions{Ranks: ranks})
		if !errors.Is(err, context.Canceled) || ctx.polls != 2 {
			t.Errorf("%d ranks: %v after %d polls, want context.Canceled after 2", ranks, err, ctx.polls)
		}
	}
	if _, err := p.ScheduleContext(context.Background(), m, ScheduleOptions{}); err == nil || errors.Is(err, context.Canceled) {
		t.Errorf("not cancelled: %v, want the step limit's error", err)
	}
}
