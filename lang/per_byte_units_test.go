package lang

import (
	"math"
	"testing"
)

func TestTimesPerByteParseAndPrint(t *testing.T) {
	tests := []struct {
		in    string
		num   float64 // seconds per byte
		print string
	}{
		{"6ns/B", 6e-9, "6ns/B"},
		{"0.5ns/B", 0.5e-9, "500ps/B"},
		{"1us/KB", 1e-9, "1ns/B"},
		{"1us/KiB", 1e-6 / 1024, "976.5625ps/B"},
		{"2ms/MB", 2e-9, "2ns/B"},
		{"1s/GB", 1e-9, "1ns/B"},
		{"3µs/B", 3e-6, "3us/B"},
		{"0s/B", 0, "0s/B"},
		{"2s/B", 2, "2s/B"},
	}
	for _, tt := range tests {
		v, err := ParseQuantity(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if v.Dim != PerByteDim || math.Abs(v.Num-tt.num) > 1e-12*math.Abs(tt.num) {
			t.Errorf("%s = %v %v, want %g s/B", tt.in, v.Num, v.Dim, tt.num)
		}
		if got := v.String(); got != tt.print {
			t.Errorf("%s prints as %s, want %s", tt.in, got, tt.print)
		}
	}
	if got := PerByteDim.Name(); got != "time per byte" {
		t.Errorf("PerByteDim.Name() = %q", got)
	}
	// A rate times a time per byte is a number; a size times one a time.
	if d := RateDim.Mul(PerByteDim); d != Dimensionless {
		t.Errorf("rate × time per byte = %v", d)
	}
	if d := SizeDim.Mul(PerByteDim); d != TimeDim {
		t.Errorf("size × time per byte = %v", d)
	}
}
