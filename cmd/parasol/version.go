package main

import (
	"fmt"
	"io"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// version is the module version the binary was built from: a release tag
// under go install …@vX.Y.Z, a pseudo-version in a checkout, or "(devel)"
// when the build recorded none (go run, tests). Read when first asked
// for: reading the build information at start-up cost every run its
// allocations.
var version = sync.OnceValue(func() string { return buildVersion(debug.ReadBuildInfo()) })

func buildVersion(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi.Main.Version == "" {
		return "(devel)"
	}
	return bi.Main.Version
}

// writeVersion prints what a bug report needs to name the build: the
// version, the commit and its time, whether the tree had uncommitted
// changes, and the Go release.
func writeVersion(w io.Writer, bi *debug.BuildInfo, ok bool) {
	fmt.Fprintf(w, "parasol %s\n", buildVersion(bi, ok))
	goVersion := goruntime.Version()
	if ok {
		if bi.Main.Path != "" {
			fmt.Fprintf(w, "  module    %s\n", bi.Main.Path)
		}
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			if settings["vcs.modified"] == "true" {
				rev += " (with uncommitted changes)"
			}
			fmt.Fprintf(w, "  revision  %s\n", rev)
		}
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(w, "  committed %s\n", t)
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
	}
	fmt.Fprintf(w, "  go        %s %s/%s\n", goVersion, goruntime.GOOS, goruntime.GOARCH)
}

// versionCmd is parasol version.
var versionCmd = &command{
	name:    "version",
	summary: "print the version and build information",
	args:    "",
	doc: `
Version prints the version of parasol, the commit it was built from (and
whether the tree had uncommitted changes), the commit's time and the Go
release, as recorded in the binary's build information. A binary built
without that record (go run, tests) says (devel).`,
	flags: noFlags(runVersion),
}

func runVersion(e *env, pos []string) error {
	if len(pos) > 0 {
		return argsError("parasol version: takes no arguments, got %s", strings.Join(pos, " "))
	}
	bi, ok := debug.ReadBuildInfo()
	writeVersion(e.stdout, bi, ok)
	return nil
}
