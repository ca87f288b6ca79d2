package fit

import (
	"strings"
	"testing"
)

// Measurements are user input: reading any bytes, and fitting whatever
// was read, gives a table or a positioned error, never a panic, and a fit
// never reports a non-finite value.
func FuzzReadAndFitMeasurements(f *testing.F) {
	for _, s := range []string{
		"size,hops,time (us)\n0,1,54.8\n16,2,101.82\n64,3,239.72\n256,4,854.74\n1024,1,781.84\n",
		"{\"size\": 0, \"time\": \"50us\"}\n{\"size\": \"1KB\", \"time\": \"60us\"}\n{\"size\": 4096, \"time\": 1e-4}\n",
		"size,time\n0,0.7us/B\n",
		"# only a comment\n",
		"size,time\n\"1,2\",3\n",
		"size [KiB],time (ms)\n1,2\n2,3\n3,5\n",
	} {
		f.Add(s)
	}
	md, err := Lookup("linear")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data string) {
		tb, err := Read("fuzz.csv", []byte(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		p, err := md.Problem()
		if err != nil {
			t.Fatal(err)
		}
		r, err := Fit(p, tb)
		if err != nil {
			return
		}
		for _, q := range r.Params {
			if q.Value != q.Value || q.Value > 1e308 || q.Value < -1e308 {
				t.Fatalf("%s = %v from %q", q.Name, q.Value, data)
			}
		}
	})
}
