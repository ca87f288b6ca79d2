package eval

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/parasol-lang/parasol/internal/limits"
)

// Stdin is the input path that means standard input, as in `parasol fmt -`
// and eval.Load("-"); diagnostics name it StdinName. Imports in it are
// relative to the working directory.
const Stdin = "-"

// StdinName is what diagnostics call standard input.
const StdinName = "<stdin>"

// DisplayName is the name diagnostics use for an input path.
func DisplayName(path string) string {
	if path == Stdin {
		return StdinName
	}
	return path
}

// stdinReader is standard input; tests replace it.
var stdinReader io.Reader = os.Stdin

// readStdin reads standard input under the limits of ReadInput. Its size
// is not known in advance, so the limit is checked as it is read.
func readStdin(maxMemory int64) ([]byte, error) {
	limit := min(maxFileSize, limits.Or(maxMemory)/inputMemoryFactor)
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(stdinReader, limit+1)); err != nil {
		return nil, fmt.Errorf("%s: %v", StdinName, err)
	}
	if int64(buf.Len()) <= limit {
		return buf.Bytes(), nil
	}
	if limit == maxFileSize {
		return nil, fmt.Errorf("%s is more than %s; an input file may be at most %s", StdinName, limits.FormatSize(limit), limits.FormatSize(maxFileSize))
	}
	return nil, limits.Check(fmt.Sprintf("reading %s (more than %s)", StdinName, limits.FormatSize(limit)), limits.Mul(limit+1, inputMemoryFactor), maxMemory)
}
