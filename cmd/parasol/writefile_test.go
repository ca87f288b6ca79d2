package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failingFile is a temporary file one of whose steps fails.
type failingFile struct {
	tempFile
	step string
}

var errInjected = errors.New("injected failure")

func (f failingFile) Write(b []byte) (int, error) {
	if f.step == "write" {
		// A full disk writes part of the data before failing.
		n, _ := f.tempFile.Write(b[:len(b)/2])
		return n, errInjected
	}
	return f.tempFile.Write(b)
}

func (f failingFile) Chmod(m fs.FileMode) error {
	if f.step == "chmod" {
		return errInjected
	}
	return f.tempFile.Chmod(m)
}

func (f failingFile) Sync() error {
	if f.step == "sync" {
		return errInjected
	}
	return f.tempFile.Sync()
}

func (f failingFile) Close() error {
	err := f.tempFile.Close()
	if f.step == "close" {
		return errInjected
	}
	return err
}

// failing is the operating system's file system with one step failing.
func failing(step string) fileSystem {
	fsys := osFileSystem
	create := fsys.createTemp
	fsys.createTemp = func(dir, pattern string) (tempFile, error) {
		if step == "create" {
			return nil, &fs.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: errInjected}
		}
		f, err := create(dir, pattern)
		if err != nil {
			return nil, err
		}
		return failingFile{f, step}, nil
	}
	if step == "rename" {
		fsys.rename = func(from, to string) error { return &os.LinkError{Op: "rename", Old: from, New: to, Err: errInjected} }
	}
	return fsys
}

const (
	oldContent = "machine \"m\" {\n  x = 1\n}\n"
	newContent = "machine \"m\" {\n\tx = 1\n}\n"
)

// A failure at any step leaves the original file as it was, with its mode,
// and no temporary file behind; the error names the file and the step.
func TestWriteFileAtomicFailureLeavesOriginal(t *testing.T) {
	tests := []struct{ step, want string }{
		{"create", "creating a temporary file in"},
		{"write", "writing"},
		{"chmod", "setting the mode of"},
		{"sync", "syncing"},
		{"close", "closing"},
		{"rename", "renaming"},
	}
	for _, tt := range tests {
		t.Run(tt.step, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "m.machine")
			if err := os.WriteFile(path, []byte(oldContent), 0o640); err != nil {
				t.Fatal(err)
			}
			err := failing(tt.step).writeFileAtomic(path, []byte(newContent))
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range []string{path + ": not written: ", tt.want, errInjected.Error(), "the file is unchanged"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			assertFile(t, path, oldContent, 0o640)
			assertOnlyFile(t, dir, "m.machine")
		})
	}
}

// The new content replaces the old with the original's mode, through a
// symbolic link to the file the link points to, and leaves nothing else.
func TestWriteFileAtomicReplacesContentKeepingMode(t *testing.T) {
	for _, mode := range []fs.FileMode{0o600, 0o640, 0o755} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "m.machine")
			if err := os.WriteFile(path, []byte(oldContent), mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, mode); err != nil { // past the umask
				t.Fatal(err)
			}
			if err := writeFileAtomic(path, []byte(newContent)); err != nil {
				t.Fatal(err)
			}
			assertFile(t, path, newContent, mode)
			assertOnlyFile(t, dir, "m.machine")
		})
	}
	t.Run("through a symbolic link", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "m.machine")
		link := filepath.Join(dir, "link.machine")
		if err := os.WriteFile(path, []byte(oldContent), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("m.machine", link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		if err := writeFileAtomic(link, []byte(newContent)); err != nil {
			t.Fatal(err)
		}
		assertFile(t, path, newContent, 0o644)
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the link is no longer a link: %v %v", fi, err)
		}
	})
}

// Read-only marks are honoured even where the permission to replace the
// file would allow it (the directory's, or root's).
func TestWriteFileAtomicRefusesReadOnly(t *testing.T) {
	tests := []struct {
		name              string
		fileMode, dirMode fs.FileMode
		want              string
	}{
		{"read-only file", 0o444, 0o755, "it is read-only (mode -r--r--r--)"},
		{"read-only directory", 0o644, 0o555, "is read-only (mode dr-xr-xr-x)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "d")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "m.machine")
			if err := os.WriteFile(path, []byte(oldContent), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tt.fileMode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, tt.dirMode); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
			err := writeFileAtomic(path, []byte(newContent))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v, want one naming %s and saying %q", err, path, tt.want)
			}
			assertFile(t, path, oldContent, tt.fileMode)
			assertOnlyFile(t, dir, "m.machine")
		})
	}
}

func assertFile(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != content {
		t.Errorf("%s holds %q, want %q", path, data, content)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != mode {
		t.Errorf("%s has mode %v, want %v", path, fi.Mode().Perm(), mode)
	}
}

func assertOnlyFile(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 1 || names[0] != name {
		t.Errorf("%s holds %v, want only %s", dir, names, name)
	}
}
