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
