package fit

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// linearRows is a CSV of n ping-pong rows of T = 20us + 1ns/B × size.
func linearRows(n int) []byte {
	var b strings.Builder
	b.WriteString("size,time\n")
	for i := 0; i < n; i++ {
		s := float64(i%100) * 64
		fmt.Fprintf(&b, "%g,%gs\n", s, 20e-6+s*1e-9)
	}
	return []byte(b.String())
}

// BenchmarkReadAndFitLinear reads and fits 20,000 rows: its time per row
// must not grow with the rows (go test -bench ReadAndFit -benchtime 1x).
func BenchmarkReadAndFitLinear(b *testing.B) {
	data := linearRows(20000)
	for b.Loop() {
		tb, err := Read("rows.csv", data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Fit(mustModel(b, "linear"), tb); err != nil {
			b.Fatal(err)
		}
	}
}

// A large file is read and fitted in time linear in its rows (reading it
// used to rescan the text from the top for every cell's position, and
// every residual the measurements for their largest: 100,000 rows took
// minutes). 100,000 rows give T = 20us + 1ns/B × size back, and an error
// in the last row still names its line and column.
func TestLargeFileIsReadAndFittedInLinearTime(t *testing.T) {
	const rows = 100000
	data := linearRows(rows)
	r, err := Fit(mustModel(t, "linear"), mustRead(t, string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Points != rows {
		t.Errorf("%d points, want %d", r.Points, rows)
	}
	for name, want := range map[string]float64{"ts": 20e-6, "tw": 1e-9} {
		if p := param(t, r, name); math.Abs(p.Value-want) > 1e-9*want {
			t.Errorf("%s = %g, want %g", name, p.Value, want)
		}
	}
	// The header is line 1 and the rows lines 2 to rows+1; a row added
	// after them is line rows+2, its time in column 4 after "64,".
	bad := append(data, "64,fast\n"...)
	_, err = Read("rows.csv", bad)
	want := fmt.Sprintf("rows.csv:%d:4: column time", rows+2)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want it to contain %q", err, want)
	}
}
