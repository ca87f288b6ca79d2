package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// fileSystem is what replacing a user's file does to the disk, as function
// values so that a test can make any one step fail.
type fileSystem struct {
	evalSymlinks func(path string) (string, error)
	stat         func(path string) (fs.FileInfo, error)
	openWrite    func(path string) (io.Closer, error)
	createTemp   func(dir, pattern string) (tempFile, error)
	rename       func(from, to string) error
	remove       func(path string) error
	syncDir      func(dir string) error
}

// tempFile is the part of *os.File that writing the new content uses.
type tempFile interface {
	io.Writer
	Name() string
	Chmod(fs.FileMode) error
	Sync() error
	Close() error
}

var osFileSystem = fileSystem{
	evalSymlinks: filepath.EvalSymlinks,
	stat:         os.Stat,
	openWrite: func(path string) (io.Closer, error) {
		return os.OpenFile(path, os.O_WRONLY, 0)
	},
	createTemp: func(dir, pattern string) (tempFile, error) { return os.CreateTemp(dir, pattern) },
	rename:     os.Rename,
	remove:     os.Remove,
	syncDir: func(dir string) error {
		d, err := os.Open(dir)
		if err != nil {
			return err
		}
		defer d.Close()
		return d.Sync()
	},
}

// writeFileAtomic replaces the content of the existing file at path by
// data, so that the file holds its old content or its new one, never a
// part: data goes to a temporary file in the same directory, which is
// synced, given the original's mode and renamed over it. On any failure the
// original is untouched, the temporary file removed, and the error names
// the file and the step that failed.
func writeFileAtomic(path string, data []byte) error {
	return osFileSystem.writeFileAtomic(path, data)
}

func (fsys fileSystem) writeFileAtomic(path string, data []byte) (err error) {
	return fsys.writeStreamAtomic(path, writeData(data))
}

// writeData is a producer of an output file's content that writes data.
func writeData(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// writeStreamAtomic is writeFileAtomic with the content written by
// produce as it is made (a trace), not held whole in memory.
func (fsys fileSystem) writeStreamAtomic(path string, produce func(io.Writer) error) (err error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: not written: %s; the file is unchanged", path, fmt.Sprintf(format, args...))
	}
	// The new file replaces the one a symbolic link points to, not the
	// link.
	target, err := fsys.evalSymlinks(path)
	if err != nil {
		return fail("%v", unwrapPath(err))
	}
	info, err := fsys.stat(target)
	if err != nil {
		return fail("%v", unwrapPath(err))
	}
	if !info.Mode().IsRegular() {
		return fail("it is not a regular file")
	}
	// Replacing by rename needs only the directory's permission, and root
	// needs none: read-only marks are honoured explicitly.
	if info.Mode().Perm()&0o222 == 0 {
		return fail("it is read-only (mode %v)", info.Mode().Perm())
	}
	f, err := fsys.openWrite(target)
	if err != nil {
		return fail("%v", unwrapPath(err))
	}
	f.Close()
	dir := filepath.Dir(target)
	dinfo, err := fsys.stat(dir)
	if err != nil {
		return fail("%v", unwrapPath(err))
	}
	if dinfo.Mode().Perm()&0o222 == 0 {
		return fail("its directory %s is read-only (mode %v)", dir, dinfo.Mode())
	}
	tmp, err := fsys.createTemp(dir, "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return fail("creating a temporary file in %s: %v", dir, unwrapPath(err))
	}
	defer func() {
		if err != nil {
			tmp.Close()
			fsys.remove(tmp.Name())
		}
	}()
	if err = produce(tmp); err != nil {
		return fail("writing %s: %v", tmp.Name(), unwrapPath(err))
	}
	if err = tmp.Chmod(info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return fail("setting the mode of %s: %v", tmp.Name(), unwrapPath(err))
	}
	if err = tmp.Sync(); err != nil {
		return fail("syncing %s: %v", tmp.Name(), unwrapPath(err))
	}
	if err = tmp.Close(); err != nil {
		return fail("closing %s: %v", tmp.Name(), unwrapPath(err))
	}
	if err = fsys.rename(tmp.Name(), target); err != nil {
		return fail("renaming %s over it: %v", tmp.Name(), unwrapPath(err))
	}
	// The rename is durable once the directory is synced too; the new
	// content is complete either way, so a failure here is not reported.
	_ = fsys.syncDir(dir)
	return nil
}

// unwrapPath drops the operation and paths of a *fs.PathError or
// *os.LinkError, which the messages above already give in words.
func unwrapPath(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// writeOutputFile writes a file the command produces (a plot, a machine
// written by probe): a file that exists is replaced as writeFileAtomic
// replaces it; a new one is written to a temporary file in its directory
// and renamed into place, so that a reader never sees a part of it.
func writeOutputFile(path string, data []byte) error {
	return writeOutputStream(path, writeData(data))
}

// writeOutputStream is writeOutputFile with the content written by produce
// as it is made.
func writeOutputStream(path string, produce func(io.Writer) error) error {
	if _, err := os.Lstat(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return osFileSystem.writeStreamAtomic(path, produce)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("%s: not written: creating a temporary file in %s: %v", path, dir, unwrapPath(err))
	}
	fail := func(step string, err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("%s: not written: %s %s: %v", path, step, tmp.Name(), unwrapPath(err))
	}
	if err := produce(tmp); err != nil {
		return fail("writing", err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fail("setting the mode of", err)
	}
	if err := tmp.Sync(); err != nil {
		return fail("syncing", err)
	}
	if err := tmp.Close(); err != nil {
		return fail("closing", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("%s: not written: renaming %s into place: %v", path, tmp.Name(), unwrapPath(err))
	}
	_ = osFileSystem.syncDir(dir)
	return nil
}
