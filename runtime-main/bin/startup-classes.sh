#!/bin/bash
# Writes lib/startup-classes.txt beside the runtime jar: the classes that a start loads up to its
# first response, in the order it loads them, from the runtime's own class path (runtime-main.jar
# and the jars directly in lib/: a line NAME) and from an EE's folder (lib/ee10, ...: a line
# "ee10 NAME"). The runtime loads them on a second thread while it starts (StartupClasses).
# They come from training starts (dev.aerun.main.Training, HttpConnector mode, one GET of / each)
# of the training app on EE10, EE8 and EE11 in one JVM, logged with -Xlog:class+load; the log
# ends where Training.Served is loaded, when all three have served.
#   usage: startup-classes.sh JAVA TARGET_DIR TRAINING_APP_DIR
set -euo pipefail
java=$1 target=$(cd "$2" && pwd) app=$(cd "$3" && pwd)
log=$target/startup-classes.log tmp=$target/startup-classes-tmp out=$target/lib/startup-classes.txt
[ -f "$target/runtime-main.jar" ] || { echo "error: no $target/runtime-main.jar" >&2; exit 1; }
rm -rf "$tmp" "$log" "$out"; mkdir -p "$tmp"
if ! "$java" -Xlog:class+load=info:file="$log" -cp "$target/runtime-main.jar" dev.aerun.main.Training / \
    "--mode http --ee ee10 --log-format text --temp-dir $tmp $app" \
    "--mode http --ee ee8 --log-format text --temp-dir $tmp $app" \
    "--mode http --ee ee11 --log-format text --temp-dir $tmp $app" > "$tmp/training.out" 2>&1; then
  cat "$tmp/training.out" >&2
  echo "error: the training start of $app failed" >&2
  exit 1
fi
# Lines: "[...][class,load] NAME source: file:/…/runtime-main.jar" (or lib/NAME.jar); lib/ee*/ and
# lib/legacy/ are other class loaders' or another mode's. Stop at the marker.
awk -v jar="file:$target/runtime-main.jar" -v lib="file:$target/lib/" '
  / dev\.aerun\.main\.Training\$Served source: / { exit }
  {
    name = ""; src = ""
    for (i = 1; i < NF; i++) if ($(i + 1) == "source:") { name = $i; src = $(i + 2); break }
    if (name == "" || name ~ /^dev\.aerun\.main\.Training/) next
    if (src == jar) { print name; next }
    if (index(src, lib) != 1) next
    rest = substr(src, length(lib) + 1); slash = index(rest, "/")
    if (slash == 0) print name
    else if (substr(rest, 1, slash - 1) ~ /^ee[0-9]+$/) print substr(rest, 1, slash - 1) " " name
  }' "$log" > "$out.tmp"
n=$(wc -l < "$out.tmp")
[ "$n" -gt 100 ] || { echo "error: only $n classes in the training start's log $log" >&2; exit 1; }
mv "$out.tmp" "$out"
rm -rf "$tmp"
echo "startup-classes.sh: $n classes in $out"
