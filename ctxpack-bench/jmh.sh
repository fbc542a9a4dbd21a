#!/usr/bin/env bash
# Runs the JMH benchmarks (dev.ctxpack.bench.jmh) from the project root.
#
#   ctxpack-bench/jmh.sh                      # search + pack, builds a SciFact index in the setup
#   CTXPACK_BENCH_INDEX=DIR ctxpack-bench/jmh.sh   # reuse an index built by the eval runner
#   ctxpack-bench/jmh.sh -p mode=bm25,dense,hybrid 'RequestBenchmark.search'
#
# Any arguments go to JMH (org.openjdk.jmh.Main); without a benchmark pattern, every benchmark in
# the jar runs (they all live in dev.ctxpack.bench.jmh). Results go to the console and, unless
# -rff is given, to ctxpack-bench/target/jmh/results.json.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=ctxpack-bench/target/ctxpack-bench.jar
if [ ! -f "$jar" ]; then
  echo "building $jar ..." >&2
  mvn -o -q install -DskipTests
fi
out=()
if [[ " $* " != *" -rff "* ]]; then
  mkdir -p ctxpack-bench/target/jmh
  out=(-rf json -rff ctxpack-bench/target/jmh/results.json)
fi
exec java -cp "$jar" org.openjdk.jmh.Main "${out[@]}" "$@"
