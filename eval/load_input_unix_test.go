//go:build unix

package eval

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO or a socket would block a reader waiting for a writer: they are
// refused from their mode, without being opened.
func TestReadInputRefusesFIFOsAndSocketsWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o666); err != nil {
		t.Skip("no FIFOs:", err)
	}
	ln, err := net.Listen("unix", "sock")
	if err != nil {
		t.Skip("no unix sockets:", err)
	}
	defer ln.Close()
	if err := os.WriteFile("m.machine", []byte("import \"fifo\"\nmachine \"m\" {}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{"fifo", "fifo is a named pipe (FIFO), not a regular file"},
		{"sock", "sock is a socket, not a regular file"},
	}
	for _, tt := range tests {
		if _, err := ReadInput(tt.path, 0); err == nil || err.Error() != tt.want {
			t.Errorf("ReadInput(%s) = %v, want %q", tt.path, err, tt.want)
		}
		if got := loadErr(tt.path); got != tt.want {
			t.Errorf("Load(%s) = %q, want %q", tt.path, got, tt.want)
		}
	}
	want := "m.machine:1:1: fifo is a named pipe (FIFO), not a regular file\n    import \"fifo\"\n    ^"
	if got := loadErr("m.machine"); got != want {
		t.Errorf("Load(m.machine):\n%s\nwant:\n%s", got, want)
	}
}
