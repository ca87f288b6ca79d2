#!/bin/sh
# Writes the schedules of issue 30's table (LogGOPSim's schedgen, built
# outside the repository) into DIR, for BenchmarkRunGOAL:
#
#	SCHEDGEN=/path/to/schedgen cmd/parasol/testdata/bench/schedules.sh DIR
#	PARASOL_GOAL_BENCH=DIR go test ./cmd/parasol -run '^$' -bench RunGOAL -benchtime 1x
#
# The last two are large: dissemination at 270,000 ranks is about 10 M
# operations (≈ 400 MB of text), linear alltoall at 1,024 ranks 2 M.
set -eu
dir=${1:?usage: schedules.sh DIR}
sg=${SCHEDGEN:-schedgen}
mkdir -p "$dir"
"$sg" -p dissemination -s 16384 -o "$dir/dissemination_16384.goal" >/dev/null
"$sg" -p binomialtreebcast -s 65536 -o "$dir/binomialtreebcast_65536.goal" >/dev/null
"$sg" -p allreduce_recdoub -s 4096 -d 1024 -o "$dir/allreduce_recdoub_4096.goal" >/dev/null
"$sg" -p linear_alltoall -s 1024 -o "$dir/linear_alltoall_1024.goal" >/dev/null
"$sg" -p dissemination -s 270000 -o "$dir/dissemination_270000.goal" >/dev/null
