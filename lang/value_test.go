package lang

import (
	"math"
	"strings"
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

func TestFormatQuantity(t *testing.T) {
	tests := []struct {
		f    float64
		d    Dim
		want string
	}{
		{940e-9, TimeDim, "940ns"},
		{1.5e-6, TimeDim, "1.5us"},
		{0, TimeDim, "0s"},
		{2, TimeDim, "2s"},
		{4096, SizeDim, "4KiB"},
		{-4096, SizeDim, "-4KiB"},
		{4000, SizeDim, "4KB"},
		{1536, SizeDim, "1.536KB"},
		{3 << 20, SizeDim, "3MiB"},
		{1024000, SizeDim, "1.024MB"},
		{1 << 62, SizeDim, "4294967296GiB"},
		{4096.5, SizeDim, "4.0965KB"},
		{2.5e6, RateDim, "2.5MB/s"},
		{4e8, FreqDim, "400MHz"},
		{0.3, Dimensionless, "0.3"},
		{1.2000000000000002e-6, TimeDim, "1.2us"},
		{3, Dim{Time: 2}, "3 s^2"},
		{3, Dim{Time: 1, Size: -1}, "3s/B"},
	}
	for _, tt := range tests {
		if got := FormatQuantity(tt.f, tt.d); got != tt.want {
			t.Errorf("FormatQuantity(%g, %v) = %q, want %q", tt.f, tt.d, got, tt.want)
		}
	}
	if got := FormatQuantitySig(1.876428571e-6, TimeDim, 4); got != "1.876us" {
		t.Errorf("FormatQuantitySig = %q", got)
	}
}

func TestParseQuantity(t *testing.T) {
	for in, want := range map[string]Value{
		"1.2us":    Quantity(1.2e-6, TimeDim),
		"20Mbit/s": Quantity(2.5e6, RateDim),
		"1KiB":     Quantity(1024, SizeDim),
		"30%":      Num(0.3),
		"7":        Num(7),
	} {
		got, err := ParseQuantity(in)
		if err != nil || got.Dim != want.Dim || got.Num-want.Num > 1e-12*want.Num || want.Num-got.Num > 1e-12*want.Num {
			t.Errorf("ParseQuantity(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseQuantity("3MBs"); err == nil || !strings.Contains(err.Error(), "did you mean") {
		t.Errorf("ParseQuantity(3MBs): %v, want a suggestion", err)
	}
}

func TestStringValues(t *testing.T) {
	a, b := StringValue("wormhole"), StringValue("wormhole")
	if a != b || a.Text() != "wormhole" || a.String() != `"wormhole"` {
		t.Errorf("interned strings differ: %v %v", a, b)
	}
	if StringValue("x") == StringValue("y") {
		t.Error("different strings compare equal")
	}
}
