#!/bin/bash
# The cold-start comparison set of docs/COLD-START.md: two sets of images ("before" and "now", each
# a folder holding javaNN/{rootfs,dist,cds} as images/target/images has them) and the app each
# serves, started in turn by cold-start.sh (each call one start without and one with the archive),
# ROUNDS rounds of: image, mode, path, before then now. One line per call on stdout, for
# cold-start-summary.py. Needs root (as cold-start.sh).
#   usage: cold-start-set.sh ROUNDS BEFORE_DIR BEFORE_WAR NOW_DIR NOW_WAR IMAGE...
# A WAR's %r stands for the image's name (java17 ...), so each image may serve its own app:
#   cold-start-set.sh 7 /tmp/base /tmp/wars/plain-%r.war images/target/images /tmp/wars/pre-%r.war \
#     java17 java21 java25 | tee set.log; benchmarks/bin/cold-start-summary.py set.log
# MODES (default "http legacy") and PATHS (default "/hello /jstl.jsp") choose what is measured.
set -u
rounds=$1 before=$2 before_war=$3 now=$4 now_war=$5
shift 5
start=$(dirname "$0")/cold-start.sh
for round in $(seq 1 "$rounds"); do
  for image in "$@"; do
    for mode in ${MODES:-http legacy}; do
      for path in ${PATHS:-/hello /jstl.jsp}; do
        for side in before now; do
          if [ "$side" = before ]; then dir=$before/$image war=${before_war//%r/$image}; else dir=$now/$image war=${now_war//%r/$image}; fi
          line=$(COLD_START_PATH=$path "$start" "$dir/rootfs" "$dir/dist" "$dir/cds" "$war" 1 --mode "$mode" 2>&1 | grep -E '^run|error')
          echo "$image $mode $path $side round $round: $line"
        done
      done
    done
  done
done
