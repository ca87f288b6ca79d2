package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval/fit"
)

func TestSizeSweepsReadListsAndGeometricRanges(t *testing.T) {
	tests := []struct {
		in   string
		want []int64
	}{
		{"32", []int64{32}},
		{"1KB,2KB,8KB", []int64{1000, 2000, 8000}},
		{"1KiB, 4096", []int64{1024, 4096}},
		{"32..64KB*2", []int64{32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768}},
		{"32..64KiB*2", []int64{32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}},
		{"1KiB..4KiB*2", []int64{1024, 2048, 4096}},
		{"10..100*1.5", []int64{10, 15, 23, 34, 51, 76}},
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

func TestSetSweepsSplitValuesOutsideBrackets(t *testing.T) {
	tests := []struct {
		in   string
		want setAxis
	}{
		{"delta=0.5us,1us,2us", setAxis{path: "delta", values: []string{"0.5us", "1us", "2us"}}},
		{"n = 4", setAxis{path: "n", values: []string{"4"}}},
		{"x=max(1, 2),3", setAxis{path: "x", values: []string{"max(1, 2)", "3"}}},
		{`name="a,b",c`, setAxis{path: "name", values: []string{`"a,b"`, "c"}}},
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

func TestCrossProductVariesTheLastAxisFastest(t *testing.T) {
	sets := setSweep{{path: "a", values: []string{"1", "2"}}}
	points, err := crossProduct(sets, []string{"ecube", "random"}, nil, []int64{32, 64}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, p := range points {
		if p.index != i {
			t.Errorf("point %d has index %d", i, p.index)
		}
		got = append(got, p.sets[0].Value+" "+p.routing+" "+fit.SizeLiteral(p.size))
	}
	want := []string{"1 ecube 32B", "1 ecube 64B", "1 random 32B", "1 random 64B",
		"2 ecube 32B", "2 ecube 64B", "2 random 32B", "2 random 64B"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("points = %q\nwant %q", got, want)
	}
	if _, err := crossProduct(setSweep{{path: "a", values: make([]string, 2000)}, {path: "b", values: make([]string, 2000)}}, nil, nil, []int64{1}, nil); err == nil {
		t.Errorf("a cross product of 4000000 points accepted")
	}
}

func TestPointSeedsDifferByPointAndBaseSeed(t *testing.T) {
	seen := map[uint64]bool{}
	for base := uint64(0); base < 4; base++ {
		for i := 0; i < 256; i++ {
			s := pointSeed(base, i)
			if seen[s] {
				t.Fatalf("pointSeed(%d, %d) = %d repeats an earlier seed", base, i, s)
			}
			seen[s] = true
		}
	}
}

func TestMergeRefusesShardOutputCutShort(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"a.jsonl", "{\"point\":0,\"points\":2}\n{\"point\":1,\"points\":2}", "a.jsonl:2: the last line is cut short"},
		{"a.txt", "point 0/2: size 32B\npoint 1/2: size", "a.txt:2: the last line is cut short"},
		{"a.csv", "point,points,size\n0,2,32\n1,2,6", "a.csv: the last line is cut short"},
		{"a.txt", "point zero: size 32B\n", "a.txt:1: not a point of a sweep's output"},
		{"a.csv", "point,points,size\n0,2\n", "a.csv: record on line 2: wrong number of fields"},
	}
	for _, tt := range tests {
		_, _, err := mergeLines(tt.name, []byte(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("mergeLines(%q) error = %v; want one containing %q", tt.data, err, tt.want)
		}
	}
	lines, header, err := mergeLines("a.csv", []byte("point,points,size\n1,2,64\n0,2,\"3,2\"\n"))
	if err != nil || header != "point,points,size\n" || len(lines) != 2 || string(lines[1].text) != "0,2,\"3,2\"\n" || lines[1].point != 0 {
		t.Errorf("mergeLines of CSV = %+v, %q, %v", lines, header, err)
	}
}
