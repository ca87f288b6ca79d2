package eval

import (
	"strings"
	"testing"
)

func TestFuncRefusesWhatIsNotAFunctionName(t *testing.T) {
	m, err := Load("std:xmp64")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want string
	}{
		{"MPI.send(1KB, 0, 1)", "MPI.send(1KB, 0, 1) is not the name of a function: name it without arguments, MPI.send"},
		{"1 + 2", "1 + 2 is not the name of a function"},
		{`"MPI.send"`, `"MPI.send" is not the name of a function`},
		{"MPI", "MPI is not a function"},
		{"MPI.nope", "MPI has no field nope"},
	}
	for _, tt := range tests {
		_, err := m.Func(tt.path)
		if err == nil {
			t.Errorf("Func(%q) = nil error, want %q", tt.path, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "internal error") {
			t.Errorf("Func(%q): %v\nwant %q", tt.path, err, tt.want)
		}
	}
	if _, err := m.Func("MPI.send"); err != nil {
		t.Errorf("Func(MPI.send): %v", err)
	}
}
