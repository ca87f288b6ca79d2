package eval

import (
	"io"
	"strings"
	"testing"
)

func TestStandardInputIsReadUnderTheInputLimits(t *testing.T) {
	tests := []struct {
		name      string
		input     string
		maxFile   int64 // maxFileSize for the test; 0 keeps it
		maxMemory int64
		want      string // the content, or the error with "ERR " before it
	}{
		{name: "machine text", input: `machine "m" {}`, want: `machine "m" {}`},
		{name: "empty", input: "", want: ""},
		{name: "at the size limit", input: "0123456789", maxFile: 10, want: "0123456789"},
		{name: "above the size limit", input: "01234567890", maxFile: 10,
			want: "ERR <stdin> is more than 10 B; an input file may be at most 10 B"},
		{name: "parsed form above the memory limit", input: strings.Repeat("x", 100), maxMemory: 32 * 50,
			want: "ERR reading <stdin> (more than 50 B) needs about 1.6 KB; the limit is 1.6 KB, set --max-memory to raise it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func(old int64) { maxFileSize = old }(maxFileSize)
			if tt.maxFile > 0 {
				maxFileSize = tt.maxFile
			}
			defer func(old io.Reader) { stdinReader = old }(stdinReader)
			stdinReader = strings.NewReader(tt.input)
			data, err := ReadInput(Stdin, tt.maxMemory)
			got := string(data)
			if err != nil {
				got = "ERR " + err.Error()
			}
			if got != tt.want {
				t.Errorf("ReadInput(%q) = %q, want %q", Stdin, got, tt.want)
			}
		})
	}
}

func TestLoadingStandardInputNamesItInDiagnosticsAndImportsNoSecondStdin(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{name: "a machine", input: "machine \"m\" {\n\tparam x = 2us\n}\n", want: ""},
		{name: "an error", input: "machine \"m\" {\n\tparam x = 2us + 1B\n}\n", want: "<stdin>:2:"},
		// An import of "-" is a file called "-", not standard input again.
		{name: "an import of a dash", input: "import \"-\"\nmachine \"m\" {}\n", want: "./-: no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			defer func(old io.Reader) { stdinReader = old }(stdinReader)
			stdinReader = strings.NewReader(tt.input)
			got := loadErr(Stdin)
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("Load(%q) error = %q, want one containing %q", Stdin, got, tt.want)
			}
		})
	}
}
