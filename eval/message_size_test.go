package eval

import "testing"

// A machine that declares message_size is derived for the size simulated,
// so a protocol chosen by size (std:ipsc2's NX/2, seed 003 §3.5.3: from
// 100 bytes on, synchronous) takes the column of Table 3.5 that the size
// falls in; a --set of message_size is the user's and stays; a machine
// without the param, or a negative size, is the machine itself.
func TestForMessageSize(t *testing.T) {
	m, err := Load("std:ipsc2")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n       int
		sync    bool
		changed bool
	}{{-1, false, false}, {0, false, false}, {99, false, true}, {100, true, true}, {4096, true, true}} {
		d, changed, err := m.ForMessageSize(c.n)
		if err != nil {
			t.Fatal(err)
		}
		v, err := d.Param("sync")
		if err != nil {
			t.Fatal(err)
		}
		if v.Truth() != c.sync || changed != c.changed {
			t.Errorf("ForMessageSize(%d): sync %v, changed %v; want %v, %v", c.n, v.Truth(), changed, c.sync, c.changed)
		}
	}
	set, err := Load("std:ipsc2", WithSet("message_size", "1KB"))
	if err != nil {
		t.Fatal(err)
	}
	if d, changed, err := set.ForMessageSize(10); err != nil || changed || d != set {
		t.Errorf("--set message_size=1KB then ForMessageSize(10): changed %v, err %v; want the machine as set", changed, err)
	}
	chain, err := Load("std:c104-chain")
	if err != nil {
		t.Fatal(err)
	}
	if d, changed, err := chain.ForMessageSize(4096); err != nil || changed || d != chain {
		t.Errorf("std:c104-chain has no message_size: ForMessageSize changed %v, err %v", changed, err)
	}
}
