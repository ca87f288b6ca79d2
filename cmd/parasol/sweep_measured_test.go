package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sweep --measured sets each point's figure beside the time measured at
// its size, and --plot draws the measurements as a series of their own,
// at their sizes and in the plot's time unit.
func TestSweepSetsMeasuredTimesBesideEachPointAndPlotsThem(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "meas.csv")
	// two rows at 1KiB: the median of the two (11.5us) stands for it
	if err := os.WriteFile(data, []byte("size,time (us)\n32,1.4\n1KiB,11\n1KiB,12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plot := filepath.Join(dir, "s.svg")
	out := string(runInProcess(t, "sweep", "std:analytic", "--compare", "MPI.send", "--size", "32,1KiB,4KiB", "--measured", data, "--plot", plot, "--workers", "1"))
	// MPI.send on std:analytic is ts + th + n tw = 1us + 100ns + n 10ns/B.
	for _, want := range []string{
		"  measured 1.4us: analytic +1.43%\n",  // 1.42us
		"  measured 11.5us: analytic -1.39%\n", // 11.34us
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "measured") != 2 {
		t.Errorf("4KiB has no measurement, yet a measured line follows it:\n%s", out)
	}
	if texts := svgTexts(t, plot); !texts["measured"] {
		t.Errorf("the plot has no measured series in its legend: %v", texts)
	}
}

func TestSweepMeasuredFileErrorsArePositioned(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"no time", "size,latency\n32,1us\n", "m.csv:1:1: no column time of measured times; the columns are size, latency"},
		{"no size", "hops,time\n1,1us\n", "m.csv:1:1: no column of message sizes (size, n or bytes); the columns are hops, time"},
		{"a fractional size", "size,time\n32.5,1us\n", "m.csv:2:1: column size: want a whole number of bytes"},
		{"times that are sizes", "size,time (B)\n32,1\n", "m.csv:1:6: column time holds a size, not a time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "m.csv")
			if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := loadMeasured(path, 0)
			if err == nil || !strings.Contains(err.Error(), strings.Replace(tc.want, "m.csv", path, 1)) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
