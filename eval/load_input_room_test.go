package eval

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A file is read into room for its size and one byte more, whatever its
// size, not into a buffer grown to twice that for the end-of-file read.
func TestReadInputHoldsAFileInRoomOfItsSize(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 4095, 4096, 65537, 1 << 20} {
		text := strings.Repeat("x = 1\n", size/6+1)[:size]
		path := filepath.Join(dir, "f.machine")
		if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		data, err := ReadInput(path, 0)
		if err != nil || string(data) != text {
			t.Fatalf("%d bytes: read %d bytes, %v", size, len(data), err)
		}
		if cap(data) > size+1 {
			t.Errorf("%d bytes: held in room for %d", size, cap(data))
		}
	}
}

// A file whose size Stat does not know (0, as for a file of /proc) is read
// to its end all the same.
func TestReadInputReadsPastTheSizeStatGave(t *testing.T) {
	const path = "/proc/self/status"
	st, err := os.Stat(path)
	if err != nil || st.Size() != 0 {
		t.Skip("no file of unknown size here")
	}
	data, err := ReadInput(path, 0)
	if err != nil || !strings.Contains(string(data), "\nPid:") {
		t.Fatalf("read %q, %v; want the whole status", data, err)
	}
}

// Load takes the file's bytes as the text it parses, not a copy of them:
// it allocates about the file's size more than LoadSource of the same text.
func TestLoadTakesTheBytesItReadsWithoutCopying(t *testing.T) {
	text := genLinks(2000, true)
	path := filepath.Join(t.TempDir(), "big.machine")
	if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	allocated := func(load func() error) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if err := load(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	fromText := allocated(func() error { _, err := LoadSource("big.machine", text); return err })
	fromFile := allocated(func() error { _, err := Load(path); return err })
	if extra := int64(fromFile) - int64(fromText); extra > int64(len(text))*3/2 {
		t.Errorf("Load allocated %d bytes more than LoadSource of the %d-byte text; want at most 1.5 times the text", extra, len(text))
	}
}
