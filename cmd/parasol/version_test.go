package main

import (
	"bytes"
	goruntime "runtime"
	"runtime/debug"
	"testing"
)

func TestVersionComesFromTheBuildInformation(t *testing.T) {
	platform := " " + goruntime.GOOS + "/" + goruntime.GOARCH + "\n"
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{name: "no build information", want: "parasol (devel)\n  go        " + goruntime.Version() + platform},
		{name: "go install of a release", bi: &debug.BuildInfo{GoVersion: "go1.26.1",
			Main: debug.Module{Path: "github.com/parasol-lang/parasol", Version: "v1.2.3"}},
			want: "parasol v1.2.3\n  module    github.com/parasol-lang/parasol\n  go        go1.26.1" + platform},
		{name: "a build in a checkout with changes", bi: &debug.BuildInfo{GoVersion: "go1.26.1",
			Main:     debug.Module{Path: "github.com/parasol-lang/parasol", Version: "v0.0.0-20260102030405-0123456789ab+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}},
			want: "parasol v0.0.0-20260102030405-0123456789ab+dirty\n  module    github.com/parasol-lang/parasol\n  revision  0123456789abcdef (with uncommitted changes)\n  committed 2026-01-02T03:04:05Z\n  go        go1.26.1" + platform},
		{name: "a clean checkout", bi: &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "github.com/parasol-lang/parasol"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}},
			want: "parasol (devel)\n  module    github.com/parasol-lang/parasol\n  revision  abc\n  go        go1.26.1" + platform},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			writeVersion(&b, tt.bi, tt.bi != nil)
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}
