//go:build unix

package cputime

import "testing"

// Burning CPU shows in Seconds.
func TestSecondsGrowWithWork(t *testing.T) {
	before := Seconds()
	x := 0
	for i := range 200_000_000 {
		x += i & 3
	}
	if after := Seconds(); !(after > before) || x == 0 {
		t.Errorf("Seconds went from %g to %g over a busy loop; want it to grow", before, after)
	}
}
