#!/bin/sh
# Prints the class path of the runtime in an image: /opt/aerun/runtime-main.jar (whose manifest
# names lib/), then legacy RPC mode's jars (lib/legacy, sorted), which java -jar would put on the
# class path only in that mode. An image starts the runtime with -cp and this list, as its
# class-data-sharing archive's training run does: the archive then covers both modes, and its
# check of the class path matches.
#   usage: runtime-classpath.sh DIST [HOME]   (DIST: the runtime's directory, runtime-main/target;
#          HOME: where the class path finds it, default /opt/aerun, the image's)
set -eu
jars=$(cd "$1/lib/legacy" 2>/dev/null && LC_ALL=C ls -1 -- *.jar 2>/dev/null) || true
[ -n "$jars" ] || { echo "error: no $1/lib/legacy/*.jar: build runtime-main first" >&2; exit 1; }
home=${2:-/opt/aerun}
cp=$home/runtime-main.jar
for jar in $jars; do
  cp="$cp:$home/lib/legacy/$jar"
done
echo "$cp"
