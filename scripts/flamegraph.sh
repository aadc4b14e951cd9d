#!/usr/bin/env bash
# Records the profiling bench while it loads one page and writes target/flamegraph.svg.
# Usage: scripts/flamegraph.sh '/members?gender=female&min'   (see `make flamegraph`)
set -euo pipefail
cd "$(dirname "$0")/.."
page=$1
bench="${CARGO_TARGET_DIR:-target}/profiling/vonk-bench"
out=target/flamegraph
mkdir -p "$out"
BENCH_ONLY="$page" "$bench" > "$out/bench.txt" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
until grep -q "SSR against" "$out/bench.txt"; do sleep 1; kill -0 $pid; done
# The bare baseline runs first (warm-up and measurement); record while the page itself is loaded.
sleep 7
perf record --no-buildid-cache -F 499 --call-graph dwarf,16384 -p $pid -o "$out/perf.data" -- sleep 4
wait $pid || true
cat "$out/bench.txt"
perf script --no-inline -i "$out/perf.data" 2>/dev/null | inferno-collapse-perf > "$out/stacks.folded"
inferno-flamegraph --minwidth 1 --title "$page" "$out/stacks.folded" > target/flamegraph.svg
rm -f "$out/perf.data"
echo "target/flamegraph.svg"
