#!/bin/bash
# Where a start's CPU goes, with and without an application class-data-sharing archive: process
# start to the first 200 of /hello on any JDK (no image, no root), runs interleaved. Prints per run
# the wall time and, at that 200, the JVM's CPU time, its JIT compiler threads' (C1/C2) and its GC
# threads', read per thread from /proc/PID/task. The archive is a dynamic one (-XX:ArchiveClassesAtExit)
# of the same start, made on the first call and kept in the work directory. The runtime starts as in
# the images: -cp with the runtime jar and legacy RPC mode's jars (lib/legacy beside it), main class
# dev.aerun.main.Main (java -jar would start its launcher agent, which the images do not).
#   usage: start-split.sh RUNTIME_JAR APP.war [RUNS [JAVA [RUNTIME_OPTION...]]]
# e.g. benchmarks/bin/start-split.sh runtime-main/target/runtime-main.jar \
#        benchmarks/bench-driver/target/apps/bench-app-ee10.war 3 java --mode http
set -eu
jar=$1 war=$2 runs=${3:-3} java=${4:-java}
shift 2; for _ in 1 2; do [ $# -gt 0 ] && shift; done
work=${START_SPLIT_DIR:-/tmp/aerun-start-split}; mkdir -p "$work"
archive=$work/app.jsa
dist=$(cd "$(dirname "$jar")" && pwd)
cp=$("$(dirname "$0")/../../images/bin/runtime-classpath.sh" "$dist" "$dist")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
start() { # JVM flags...: starts the runtime, waits for its first 200; echoes the pid
  "$java" "$@" -cp "$cp" dev.aerun.main.Main "${opts[@]}" --port "$port" --address 127.0.0.1 --temp-dir "$work" "$war" \
    > "$work/run.log" 2>&1 &
  local pid=$!
  until curl -s -o /dev/null -f "http://127.0.0.1:$port/hello"; do
    kill -0 $pid 2>/dev/null || { cat "$work/run.log" >&2; exit 1; }
    sleep 0.01
  done
  echo $pid
}
opts=("$@")
if [ ! -f "$archive" ]; then
  pid=$(start -XX:ArchiveClassesAtExit="$archive"); kill $pid; wait $pid 2>/dev/null || true
fi
one() { # label, JVM flags...
  local label=$1; shift
  local s=$(date +%s%N) pid e all=0 jit=0 gc=0 name ms
  pid=$(start "$@"); e=$(date +%s%N)
  for t in /proc/$pid/task/*; do
    name=$(cat "$t/comm"); ms=$(awk '{print ($14+$15)*10}' "$t/stat"); all=$((all + ms))
    case "$name" in C1*|C2*) jit=$((jit + ms)) ;; G1*|GC*) gc=$((gc + ms)) ;; esac
  done
  kill $pid; wait $pid 2>/dev/null || true
  echo "$label wall $(( (e - s) / 1000000 )) ms, CPU $all ms: JIT $jit ms, GC $gc ms"
}
for r in $(seq 1 "$runs"); do
  one "run $r, no archive:" -Xshare:auto
  one "run $r, archive:   " -XX:SharedArchiveFile="$archive" -Xshare:on
done
