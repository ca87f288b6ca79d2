package results

import (
	"strings"
	"testing"
)

func TestJSONNumbersLoseBinaryNoise(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"v":0.0000019699999999999998}`, `{"v":0.00000197}`},
		{`{"v":1.9699999999999998e-7}`, `{"v":1.97e-7}`},
		{`{"v":9.400000000000001e-7}`, `{"v":9.4e-7}`},
		{`{"v":-0.30000000000000004}`, `{"v":-0.3}`},
		{`{"v":1.0000000000000002e+21}`, `{"v":1e+21}`},
		// integers keep every digit: an event count may pass 2^53
		{`{"events":12345678901234567890}`, `{"events":12345678901234567890}`},
		// digits inside strings are text, escaped quotes included
		{`{"expr":"0.30000000000000004 \"1.9699999999999998\"","v":[0.1,2.5e-9]}`, `{"expr":"0.30000000000000004 \"1.9699999999999998\"","v":[0.1,2.5e-9]}`},
		{`[true,false,null,0,-1,1.5]`, `[true,false,null,0,-1,1.5]`},
	} {
		if got := string(CleanNumbers([]byte(c.in))); got != c.want {
			t.Errorf("CleanNumbers(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// A seed from 2^53 on is also written as "seed_str", exact; one below is
// not, so results with small seeds are unchanged. Other strings keep <, >
// and & as Encoder does.
func TestRunSeedAboveTwoTo53IsAlsoAString(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		want string
	}{
		{1, `"seed":1,"sets"`},
		{1<<53 - 1, `"seed":9007199254740991,"sets"`},
		{1 << 53, `"seed":9007199254740992,"seed_str":"9007199254740992","sets"`},
		{10451216379200822465, `"seed":10451216379200822465,"seed_str":"10451216379200822465","sets"`},
	} {
		seed := c.seed
		var buf strings.Builder
		if err := NewEncoder(&buf).Encode(&Run{Command: "sim", Seed: &seed, SeedStr: "stale", Sets: []string{"x=a<b&c"}}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), c.want) || !strings.Contains(buf.String(), `"x=a<b&c"`) {
			t.Errorf("seed %d: %s, want %s and the set unescaped", c.seed, buf.String(), c.want)
		}
	}
}
