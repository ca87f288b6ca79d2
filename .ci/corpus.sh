#!/usr/bin/env bash
# corpus.sh [BASE] — behaviour kept: builds parasol at BASE (default: main's
# merge base with HEAD, or HEAD~1) and at the working tree, runs about 1,400
# CLI commands with each (sim over 10 machines × 7 ops × 4 switchings × 3
# routings, programs and GOAL schedules analytic / simulated / compared,
# eval, compare, route, check, draw, sweep, fit, fmt, import over every
# standard machine and example), all reading BASE's input files, and diffs
# the outputs byte for byte (the "version" field aside). A restructuring
# keeps them identical; a fix changes only what it intends. Not run by CI
# (it takes about a minute of two cores): run it before and after a move.
set -u
top=$(git rev-parse --show-toplevel); cd "$top"
base=${1:-$(git merge-base main HEAD 2>/dev/null || git rev-parse HEAD~1)}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
git archive "$base" | tar -x -C "$work/in"
(cd "$work/in" && go build -o "$work/base" ./cmd/parasol) || exit 1
go build -o "$work/head" ./cmd/parasol || exit 1
cmds() {
	local M10="std:xmp64 std:booksim-mesh std:c104-chain std:ipsc1 std:ncube std:parsytec-gcel std:tiny-t800 examples/ring.machine examples/star.machine examples/xmp64.machine"
	for m in $M10; do for op in send randperm transpose alltoall broadcast uniform barrier; do
		for sw in saf vct wormhole circuit; do for rt in shortest random least-used; do
			echo "P sim $m --op $op --switching $sw --routing $rt --size 256 --runs 2 --json"
		done; done
	done; done
	local STD EX PROGS
	STD=$(cd "$work/in" && "$work/base" machines | awk '{print $1}' | tr '\n' ' ')
	EX=$(cd "$work/in" && ls examples/*.machine | tr '\n' ' ')
	PROGS=$(cd "$work/in" && { ls examples/programs/*.machine; find . -path '*/testdata/goal/*.goal' | sed 's|^\./||' | sort | head -8; } | tr '\n' ' ')
	for m in std:xmp64 std:loggp std:c104-chain std:booksim-mesh examples/ring.machine std:ipsc2 std:models; do
		for p in $PROGS; do for mode in --analytic --compare --simulate; do echo "P run $m $p $mode --json"; done; done
	done
	for m in $STD $EX; do
		echo "P check --json $m"; echo "P eval --json $m nodes diameter"
		echo "P eval $m 'MPI.send(4KB, 0, 1)' 'MPI.barrier()'"; echo "P eval $m 'PVM.send(4KB, 0, 1)'"
		echo "P compare --json $m MPI.send --size 4KB"; echo "P compare $m MPI.barrier"
		echo "P route --json $m 0 3"; echo "P route --check --json $m"; echo "P route --check --routing acyclic --json $m"
		echo "P draw $m"; echo "P sweep $m --op randperm --size 32,1KB --json"
		echo "P sweep $m --compare MPI.send --size 1..4KiB*4 --format csv"; echo "P machines $m"
	done
	for f in $EX; do echo "P check --json $f"; echo "P fmt -d $f"; done
	echo "P import examples/parasol1.machine"
	for f in $(cd "$work/in" && ls eval/fit/testdata/*.csv); do for mo in tiny linear k45; do echo "P fit --json $mo $f"; done; done
	echo "P sweep std:booksim-mesh --op uniform --size 32 --load 0.05:0.3:0.05 --json"
	echo "P sweep std:xmp64 --run examples/programs/ring.machine --arg 'n=1KB,4KB,16KB' --format csv"
	echo "P sweep std:c104-chain --op send --size 32..64KiB*2 --set 'delta=0.5us,1us,2us' --format csv"
	echo "P sim std:xmp64 --op randperm --runs 100 --json"
	echo "P sim std:xmp64 --op transpose --json --link-loads"
}
cmds > "$work/cmds"
record() { # record BINARY OUT
	mkdir -p "$2"
	local i=0
	while IFS= read -r c; do i=$((i + 1)); printf '%05d\t%s\n' "$i" "$c"; done < "$work/cmds" |
		(cd "$work/in" && PARASOL_MAX_MEMORY=4GB xargs -P "$(nproc)" -d '\n' -n 1 bash -c 'n=${0%%	*}; c=${0#*	}; P='"$1"'; { echo "# $c"; eval "timeout 120 ${c/#P/\$P}" 2>&1; echo "# exit $?"; } | sed -E "s/\"version\":\"[^\"]*\"//g" > '"$2"'/$n')
}
record "$work/base" "$work/out-base"
record "$work/head" "$work/out-head"
n=$(wc -l < "$work/cmds")
if diff -r "$work/out-base" "$work/out-head" > "$work/diff"; then
	echo "corpus: all $n outputs identical to $base's"
else
	echo "corpus: $(grep -c '^diff' "$work/diff") of $n outputs differ from $base's:"
	cat "$work/diff"
	exit 1
fi
