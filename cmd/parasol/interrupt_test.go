package main

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

func TestAnInterruptedCommandSaysSoAndExits130(t *testing.T) {
	canceled := fmt.Errorf("simulating: %w", context.Canceled)
	tests := []struct {
		name           string
		args           []string
		stdout, stderr string
	}{
		{"text", []string{"std:puma", "--op", "alltoall"}, "",
			"interrupted (Ctrl-C)\n"},
		{"json", []string{"std:puma", "--op", "alltoall", "--json"},
			`{"error":{"message":"interrupted (Ctrl-C)","severity":"error"}}` + "\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			e := &env{stdout: &stdout, stderr: &stderr}
			if code := report(e, tc.args, canceled); code != exitInterrupted {
				t.Errorf("exit status %d, want %d", code, exitInterrupted)
			}
			if stdout.String() != tc.stdout || stderr.String() != tc.stderr {
				t.Errorf("stdout %q, stderr %q\nwant %q, %q", stdout.String(), stderr.String(), tc.stdout, tc.stderr)
			}
		})
	}
}
