package fit

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
)

// pairs is two pairs' ping-pongs: three and two times of 0 → 1, one of
// 2 → 3 at each size, whose probe timed trains of 16.
const pairs = `size,time (us),src,dst,count
32,1,0,1,1
32,3,0,1,1
32,2,0,1,1
1KiB,10,0,1,1
1KiB,14,0,1,1
32,100,2,3,16
1KiB,200,2,3,16
`

func TestMedianTimesTakesTheMedianOfThePairsRowsAtEachSize(t *testing.T) {
	zero, one := 0, 1
	m, err := MedianTimes(mustRead(t, pairs), &zero, &one, "the sweep times one")
	if err != nil {
		t.Fatal(err)
	}
	// 32 B: the middle of 1, 2, 3 us; 1 KiB: the mean of the middle two,
	// (10 + 14) / 2 us. Pair 2 → 3's rows (and their trains) are not
	// counted.
	want := map[int64]float64{32: 2e-6, 1024: 12e-6}
	if len(m.Times) != len(want) {
		t.Errorf("times %v, want %v", m.Times, want)
	}
	for size, w := range want {
		if got := m.Times[size]; math.Abs(got-w) > 1e-9*w {
			t.Errorf("time at %d B = %g, want %g", size, got, w)
		}
	}
	if !reflect.DeepEqual(m.Sizes(), []int64{32, 1024}) {
		t.Errorf("sizes %v, want 32, 1024", m.Sizes())
	}
	if want := []Endpoint{{"src", 0}, {"dst", 1}}; !reflect.DeepEqual(m.Pair, want) {
		t.Errorf("pair %v, want %v", m.Pair, want)
	}
}

func TestMedianTimesOfOneEndpointKeepsTheRowsOfIt(t *testing.T) {
	// Only the 2 → 3 rows have dst 3; they time trains, so they are
	// refused, where the 0 → 1 rows are not.
	three := 3
	_, err := MedianTimes(mustRead(t, pairs), nil, &three, "the sweep times one")
	if err == nil || !strings.HasPrefix(err.Error(), "points.csv:7:12: column count: this row times a train of 16 messages; the sweep times one: keep the rows of count 1\n") {
		t.Errorf("err = %v, want the train of row 7 refused", err)
	}
	one := 1
	m, err := MedianTimes(mustRead(t, pairs), nil, &one, "the sweep times one")
	if err != nil || len(m.Times) != 2 || !reflect.DeepEqual(m.Pair, []Endpoint{{"dst", 1}}) {
		t.Errorf("dst 1: %+v, %v; want two sizes of the pair dst 1", m, err)
	}
}

func TestMedianTimesOfSeveralPairsNeedsOneChosen(t *testing.T) {
	_, err := MedianTimes(mustRead(t, pairs), nil, nil, "the sweep times one")
	var pe *PairsError
	if !errors.As(err, &pe) || !reflect.DeepEqual(pe.Columns, []string{"src", "dst"}) || !reflect.DeepEqual(pe.Pairs, []string{"0 1", "2 3"}) {
		t.Fatalf("err = %v, want the pairs 0 1 and 2 3 of columns src, dst", err)
	}
	// A table of one pair, or of none, needs no choice.
	for _, text := range []string{"size,time,src,dst\n32,1us,0,1\n32,3us,0,1\n", "size,time\n32,1us\n32,3us\n"} {
		m, err := MedianTimes(mustRead(t, text), nil, nil, "the sweep times one")
		if err != nil || m.Times[32] != 2e-6 || m.Pair != nil {
			t.Errorf("%q: %+v, %v; want 2us at 32 B from every row", text, m, err)
		}
	}
}

func TestMedianTimesErrorsArePositioned(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"no time", "size,latency\n32,1us\n", "points.csv:1:1: no column time of measured times; the columns are size, latency"},
		{"no size", "hops,time\n1,1us\n", "points.csv:1:1: no column of message sizes (size, n or bytes); the columns are hops, time"},
		{"a fractional size", "size,time\n32.5,1us\n", "points.csv:2:1: column size: want a whole number of bytes"},
		{"times that are sizes", "size,time (B)\n32,1\n", "points.csv:1:6: column time holds a size, not a time"},
		{"a negative time", "size,time\n32,1us\n64,-2us\n", "points.csv:3:4: column time: a measured time of -2us; a time is above 0s"},
		{"a time of 0 seconds", "size,time\n32,0\n", "points.csv:2:4: column time: a measured time of 0s; a time is above 0s"},
	} {
		_, err := MedianTimes(mustRead(t, tc.data), nil, nil, "the sweep times one")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestCheckPrimitiveFeedsTheDefaultsAndRefusesTrains(t *testing.T) {
	m, err := eval.Load("std:analytic")
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Func("MPI.send")
	if err != nil {
		t.Fatal(err)
	}
	// MPI.send on std:analytic is ts + th + n tw = 1us + 100ns + n 10ns/B:
	// 1.42us at 32 B (measured 1.4us: +1.43%), 11.34us at the default
	// 1 KiB (measured 11us: +3.09%).
	d := Defaults{Size: 1024, Src: 0, Dst: 1, Procs: 2}
	c, err := CheckPrimitive(f, "MPI.send", mustRead(t, "size,time (us)\n32,1.4\n"), d)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Rows[0]; math.Abs(r.Predicted-1.42e-6) > 1e-15 || math.Abs(r.Error-0.02/1.4) > 1e-9 || !reflect.DeepEqual(c.Fed, []string{"size", "", ""}) {
		t.Errorf("row %+v fed by %q; want 1.42us, +1.43%%, n from size", r, c.Fed)
	}
	c, err = CheckPrimitive(f, "MPI.send", mustRead(t, "time (us)\n11\n"), d)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Rows[0]; math.Abs(r.Predicted-11.34e-6) > 1e-15 || math.Abs(r.Error-0.34/11) > 1e-9 {
		t.Errorf("row %+v; want 11.34us at the default size, +3.09%%", r)
	}
	_, err = CheckPrimitive(f, "MPI.send", mustRead(t, "size,time (us),count\n32,1.4,1\n32,20,16\n"), d)
	if err == nil || !strings.HasPrefix(err.Error(), "points.csv:3:7: column count: this row times a train of 16 messages; MPI.send costs one: keep the rows of count 1\n") {
		t.Errorf("err = %v, want the train of row 3 refused", err)
	}
}

// compare --measured refuses what fit refuses, at its cell: a time of 0
// or below, a negative size fed to the primitive, sizes in the column of
// times; the error of a measurement of 0 that is not a time stays.
func TestCheckPrimitiveRefusesImpossibleData(t *testing.T) {
	m, err := eval.Load("std:analytic")
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Func("MPI.send")
	if err != nil {
		t.Fatal(err)
	}
	d := Defaults{Size: 1024, Src: 0, Dst: 1, Procs: 2}
	for _, tc := range []struct{ name, data, want string }{
		{"a negative time", "size,time\n32,1.4us\n64,-1us\n", "points.csv:3:4: column time: a measured time of -1us; a time is above 0s"},
		{"a time of 0", "size,time (us)\n32,0\n", "points.csv:2:4: column time: a measured time of 0s; a time is above 0s"},
		{"a negative size", "size,time\n-32,1.4us\n", "points.csv:2:1: column size: a size of -32B; a size is 0B or more (the column feeds n of MPI.send)"},
		{"a negative size with a unit", "n,time\n1KB,1.4us\n-1KB,2us\n", "points.csv:3:1: column n: a size of -1KB; a size is 0B or more (the column feeds n of MPI.send)"},
		{"sizes where times are", "size,time\n32,1KB\n", "points.csv:2:4: column time holds sizes (B), where MPI.send needs times: measured times, with their unit (31us)"},
	} {
		_, err := CheckPrimitive(f, "MPI.send", mustRead(t, tc.data), d)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want+"\n") {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
