package eval

import "testing"

// The link block's fields are found by a switch (linkFieldIndex) as well as
// in the schema: both must name the same fields with the same specs.
func TestLinkSpecsAreTheLinkSchema(t *testing.T) {
	schema := blocks["link"].fields
	if len(linkSpecs) != len(schema) {
		t.Fatalf("linkSpecs has %d fields, the link schema %d", len(linkSpecs), len(schema))
	}
	seen := map[int]string{}
	for name, want := range schema {
		i := linkFieldIndex(name)
		if i < 0 || i >= len(linkSpecs) {
			t.Errorf("link field %q has index %d", name, i)
			continue
		}
		if other, dup := seen[i]; dup {
			t.Errorf("link fields %q and %q share index %d", name, other, i)
		}
		seen[i] = name
		if got := linkSpecs[i]; got != want {
			t.Errorf("link field %q: spec %+v, want %+v", name, got, want)
		}
		if got, ok := fieldSpecOf("link", name); !ok || got != want {
			t.Errorf("fieldSpecOf(link, %q) = %+v, %v; want %+v", name, got, ok, want)
		}
	}
	for _, name := range []string{"processortype0", "bandwidth", "", "Latency"} {
		if linkFieldIndex(name) >= 0 {
			t.Errorf("%q has a link field index", name)
		}
	}
}
