package lang

import (
	"strings"
	"testing"
)

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
		{4096, SizeDim, "4.096KB"},
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

func TestSuggest(t *testing.T) {
	cands := []string{"createjob", "jobswitch", "branchdelay", "h_in", "h_off"}
	for in, want := range map[string]string{"createjb": "createjob", "h_inn": "h_in", "branchdely": "branchdelay", "zzzzzz": ""} {
		if got := Suggest(in, cands); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDiagnosticRendering(t *testing.T) {
	src := NewSource("m.machine", "machine \"m\" {\n\tparam x = 1ns + 1B\n}\n")
	d := Errorf(src.PosAt(strings.Index(src.Text, "+")), "cannot add a time and a size")
	want := "m.machine:2:16: cannot add a time and a size\n     param x = 1ns + 1B\n                   ^"
	if got := d.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var ds Diagnostics
	ds.Add(src.PosAt(30), "second")
	ds.Add(src.PosAt(2), "first")
	ds.Add(src.PosAt(2), "first")
	err := ds.Err()
	if n := len(err.(Diagnostics)); n != 2 {
		t.Errorf("%d diagnostics after dedup, want 2", n)
	}
	if !strings.HasPrefix(err.Error(), "m.machine:1:3: first") {
		t.Errorf("diagnostics not sorted: %v", err)
	}
	long := NewSource("l", strings.Repeat("x", 5000)+"!")
	if out := Errorf(long.PosAt(5000), "here").Error(); len(out) > 400 || !strings.Contains(out, "!") {
		t.Errorf("a long line is not cut around the column: %d bytes", len(out))
	}
}
