package main

import (
	"os"
	"testing"
)

// /dev/null is a character device but not a terminal: output redirected
// there (or a log file) gets no progress display.
func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("isTerminal(/dev/null) = true")
	}
}
