package results

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/runtime"
)

// Issue 26: an open-loop point printed 0 for the send times and
// processor loads it does not measure.
func TestLoadJSONHasNullForWhatIsNotMeasured(t *testing.T) {
	p := &runtime.LoadResult{Load: 0.1, Result: &runtime.Result{Op: "uniform", ProcLoadMax: 7}}
	for _, rec := range []any{Load{LoadResult: p}, SweepLoad{LoadResult: p}} {
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"send_time", "proc_load_max", "proc_load_max_mean"} {
			if !strings.Contains(string(b), `"`+key+`":null`) || strings.Count(string(b), `"`+key+`"`) != 1 {
				t.Errorf("%T: %s; want %q once, null", rec, b, key)
			}
		}
		if !strings.Contains(string(b), `"load":0.1,`) || !strings.Contains(string(b), `"op":"uniform"`) {
			t.Errorf("%T: %s; want the point's own keys", rec, b)
		}
	}
}
