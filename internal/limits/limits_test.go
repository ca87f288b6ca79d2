package limits

import (
	"math"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"4GB", 4e9}, {"512MiB", 512 << 20}, {"2.5G", 2.5e9}, {"1000", 1000}, {" 3 KB ", 3000},
	} {
		got, err := ParseSize(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "-1GB", "0", "lots", "1e30GB", "NaN"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q): no error", bad)
		}
	}
}

func TestCheck(t *testing.T) {
	if err := Check("x", 10, 100); err != nil {
		t.Fatal(err)
	}
	err := Check("hypercube(24)", 11e9, 4e9)
	want := "hypercube(24) needs about 11 GB; the limit is 4.0 GB, set --max-memory to raise it"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	if err := Check("x", Mul(1<<40, 1<<40), 1<<30); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("overflowing estimate: %v", err)
	}
	if Mul(3, 4, 5) != 60 || Mul(math.MaxInt64, 2) != math.MaxInt64 || Mul(5, 0) != 0 {
		t.Fatal("Mul")
	}
	if Add(3, 4, 5) != 12 || Add(math.MaxInt64, 1, 1) != math.MaxInt64 || Add() != 0 {
		t.Fatal("Add")
	}
	if Default() <= 0 {
		t.Fatal("Default")
	}
}
