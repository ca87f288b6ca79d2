package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval/study"
)

func TestSizeSweepsReadListsAndGeometricRanges(t *testing.T) {
	tests := []struct {
		in   string
		want []int64
	}{
		{"32", []int64{32}},
		{"1KB,2KB,8KB", []int64{1000, 2000, 8000}},
		{"1KiB, 4096", []int64{1024, 4096}},
		{"32..64KiB*2", []int64{32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}},
		{"1KiB..4KiB*2", []int64{1024, 2048, 4096}},
		{"1..4KiB*4", []int64{1, 4, 16, 64, 256, 1024, 4096}},
		{"1KB..8KB*2", []int64{1000, 2000, 4000, 8000}},
		{"10..114*1.5", []int64{10, 15, 23, 34, 51, 76, 114}},
		{"8..8*2", []int64{8}},
		{"1..3*1.1", []int64{1, 2, 3}}, // rounding repeats are kept once
	}
	for _, tt := range tests {
		got, err := parseSizeSweep(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseSizeSweep(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestSizeSweepsRefuseMalformedRanges(t *testing.T) {
	tests := []struct{ in, want string }{
		{"32..64", "a range is LO..HI*FACTOR"},
		{"64..32*2", "ends below its start"},
		{"32..64*1", "factor must be a number greater than 1"},
		{"32..64*x", "factor must be a number greater than 1"},
		{"0..64*2", "starts at 1 byte or more"},
		{"32..4us*2", "expected a size (e.g. 4KB), got a time"},
		{"1KB,,2KB", "expected a size"},
		{"1.5", "whole number of bytes"},
		{"1..1e18*1.0000001", "more than 1000000 sizes"},
		{"1..1e18*1.0000000000001", "more than 1000000 sizes"},
	}
	for _, tt := range tests {
		_, err := parseSizeSweep(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseSizeSweep(%q) error = %v; want one containing %q", tt.in, err, tt.want)
		}
	}
}

// A geometric range whose end is not one of its points is refused,
// naming the last point it reaches and the range ending at the point of
// the series nearest its end (issue 26: 32..64KB*2 stopped at 32768 B
// without a word, since 64KB is 64,000 B); the range suggested is
// accepted and ends there.
func TestSizeSweepsRefuseAnEndOutsideTheSeries(t *testing.T) {
	tests := []struct {
		in, want string
		end      int64 // the last size of the range suggested
	}{
		{"32..64KB*2", "64KB (64000 B) is not 32·2^k; the series ends at 32768 B; write 32..64KiB*2", 1 << 16},
		{"1..4KB*4", "4KB (4000 B) is not 1·4^k; the series ends at 1024 B; write 1..4KiB*4", 1 << 12},
		{"32..40000*2", "40000 B is not 32·2^k; the series ends at 32768 B; write 32..32KiB*2", 1 << 15},
		{"1KiB..3KiB*2", "3KiB (3072 B) is not 1024·2^k; the series ends at 2048 B; write 1KiB..2KiB*2", 2048},
		{"10..100*1.5", "100 B is not 10·1.5^k rounded to whole bytes; the series ends at 76 B; write 10..114B*1.5", 114},
		{"1..5e18*2", "5e18 B is not 1·2^k; the series ends at 4611686018427387904 B; write 1..4294967296GiB*2", 1 << 62},
	}
	for _, tt := range tests {
		_, err := parseSizeSweep(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("parseSizeSweep(%q) error = %v; want %q", tt.in, err, tt.want)
			continue
		}
		suggested := tt.want[strings.LastIndex(tt.want, " ")+1:]
		got, err := parseSizeSweep(suggested)
		if err != nil || got[len(got)-1] != tt.end {
			t.Errorf("the range suggested for %q, %q, gives %v, %v; want one ending at %d", tt.in, suggested, got, err, tt.end)
		}
	}
}

func TestSetSweepsSplitValuesOutsideBrackets(t *testing.T) {
	tests := []struct {
		in   string
		want study.Axis
	}{
		{"delta=0.5us,1us,2us", study.Axis{Path: "delta", Values: []string{"0.5us", "1us", "2us"}}},
		{"n = 4", study.Axis{Path: "n", Values: []string{"4"}}},
		{"x=max(1, 2),3", study.Axis{Path: "x", Values: []string{"max(1, 2)", "3"}}},
		{`name="a,b",c`, study.Axis{Path: "name", Values: []string{`"a,b"`, "c"}}},
	}
	for _, tt := range tests {
		var s setSweep
		if err := s.Set(tt.in); err != nil || len(s) != 1 || !reflect.DeepEqual(s[0], tt.want) {
			t.Errorf("--set %q = %v, %v; want %v", tt.in, s, err, tt.want)
		}
	}
	var s setSweep
	if err := s.Set("delta=1us,,2us"); err == nil {
		t.Errorf("--set with an empty list value accepted")
	}
}
