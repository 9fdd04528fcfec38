#!/bin/bash
# Cold start of a runtime image, with and without its class-data-sharing archive: process start to
# the first 200 of /hello, the image's own JVM on its own root file system (as in images/bin/train-cds.sh),
# runs interleaved. Prints each run (wall time, the JVM's CPU time up to that 200, which a busy
# machine inflates less, and its main thread's share of it) and the medians with their spread.
# Each start has a network namespace of its own: its port is private to it. Needs root.
#   usage: cold-start.sh ROOTFS DIST CDS_DIR APP.war [RUNS [RUNTIME_OPTION...]]
# With COLD_START_PHASES=1, one more start each way after the timed ones, followed by
# cold-phases.py, prints where its time went: wall and CPU time per phase and thread group.
# e.g. --mode legacy or --mode http (the archive covers both, and every EE version: docs/DEPLOY.md).
# COLD_START_PATH=/jstl.jsp polls that path instead of /hello: the first 200 of a JSP, which an app
# whose JSPs stage precompiled answers without compiling it (docs/COLD-START.md).
# COLD_START_JVM_OPTIONS adds JVM options to every start (e.g. -XX:+UnlockDiagnosticVMOptions
# -XX:-AOTReplayTraining), split at spaces.
set -eu
request_path=${COLD_START_PATH:-/hello}
root=$1 dist=$2 cds=$3 war=$(cd "$(dirname "$4")" && pwd)/$(basename "$4") runs=${5:-5}
shift 4; [ $# -gt 0 ] && shift
# The JRE's own directory, not Debian's alias links to it (java-1.17.0-openjdk-amd64 ...).
java_home=$(cd "$root" && for d in usr/lib/jvm/java-*-openjdk-amd64; do [ -L "$d" ] || echo "$d"; done | head -1)
archive=$(ls "$cds" | head -1)
classpath=$("$(dirname "$0")/../../images/bin/runtime-classpath.sh" "$dist") # the image's, as its archive was trained
case "$archive" in *.aot) use="-XX:AOTCache=/opt/aerun/cds/$archive" ;; *) use="-XX:SharedArchiveFile=/opt/aerun/cds/$archive" ;; esac
app=$(mktemp -d); trap 'rm -rf "$app"' EXIT
(cd "$app" && jar -xf "$war"); chmod -R a+rX "$app"; mkdir -p "$dist/cds"
sed -i '/<env-variables>/,/<\/env-variables>/d' "$app/WEB-INF/appengine-web.xml"
# The app's <runtime> is the image's (java-25-openjdk-amd64: java25), as an app for the image has it.
runtime=java$(echo "$java_home" | sed 's|.*/java-\([0-9]*\)-.*|\1|')
sed -i "s|<runtime>[^<]*</runtime>|<runtime>$runtime</runtime>|" "$app/WEB-INF/appengine-web.xml"
# Each start has a network namespace of its own (only its loopback), so its port is private: no other
# server on the machine can take it or answer in its place, and the probes enter that namespace.
port=8080
own_net=$(readlink /proc/self/ns/net)
once() { # $1: extra JVM option or "-Xshare:auto"; with $phases set, cold-phases.py follows the start
  local log; log=$(mktemp)
  local phase_options=()
  if [ -n "${phases:-}" ]; then # the markers cold-phases.py reads, in the root file system's /tmp
    printf '.level=INFO\n' >"$root/tmp/aerun-phases.properties"
    for ee in ee8 ee10 ee11; do
      printf 'org.eclipse.jetty.%s.%s.level=FINE\n' "$ee" webapp.Configurations "$ee" annotations.AnnotationConfiguration
    done >>"$root/tmp/aerun-phases.properties"
    phase_options=(-Xlog:class+load:file=/tmp/aerun-classes.log:uptime,tid -Djava.util.logging.config.file=/tmp/aerun-phases.properties)
  fi
  local start; start=$(date +%s%N)
  env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin PORT=$port AERUN_APP=/app DIST="$dist" APP="$app" CDS="$cds" \
    unshare --net --mount --pid --fork --kill-child sh -c '
      root=$1; shift
      ip link set lo up && mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" &&
      mount --bind "$DIST" "$root/opt/aerun" && mkdir -p "$DIST/cds" 2>/dev/null; mount --bind "$CDS" "$root/opt/aerun/cds" &&
      mount --bind "$APP" "$root/app" && exec chroot --userspec=65532:65532 "$root" "$@"' sh "$root" \
    "/$java_home/bin/java" "$1" ${COLD_START_JVM_OPTIONS:-} "${phase_options[@]}" -XX:MaxRAMPercentage=75 -cp "$classpath" dev.aerun.main.Main --log-format json "${@:2}" >"$log" 2>&1 &
  local pid=$!
  # unshare (env execs it) makes the namespace a moment after its start; until then it is ours.
  local net="/proc/$pid/ns/net"
  while [ "$(readlink "$net" 2>/dev/null)" = "$own_net" ]; do sleep 0.001; done
  [ -z "${phases:-}" ] || nsenter --net="$net" python3 "$(dirname "$0")/cold-phases.py" $pid $port "$root/tmp/aerun-classes.log" "$log" >&2 ||
    { cat "$log" >&2; return 1; }
  until nsenter --net="$net" bash -c 'exec 3<>/dev/tcp/127.0.0.1/'$port' && printf "GET '$request_path' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" >&3 && head -1 <&3 | grep -q " 200 "' 2>/dev/null; do
    kill -0 $pid 2>/dev/null || { cat "$log" >&2; return 1; }
    sleep 0.02
  done
  local end; end=$(date +%s%N)
  # unshare's child is the JVM (sh and chroot exec it): its CPU time (utime + stime, in ticks).
  local jvm; jvm=$(cat "/proc/$pid/task/$pid/children"); jvm=${jvm%% *}
  local cpu; cpu=$(awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$jvm/stat")
  # The main thread's share (the kernel names it, and the idle first thread, "java"; the JVM names
  # its others): the start's critical path, which work moved to another thread shortens.
  local main; main=$(cat /proc/"$jvm"/task/*/stat 2>/dev/null |
    awk -v hz="$(getconf CLK_TCK)" '$2 == "(java)" {t += $14 + $15} END {print int(t * 1000 / hz)}')
  kill -TERM "$jvm"
  wait $pid || true
  rm -f "$log" "$root/tmp/aerun-classes.log" "$root/tmp/aerun-phases.properties"
  echo "$(( (end - start) / 1000000 )) $cpu $main"
}
with=() without=() cpu_with=() cpu_without=() ratios=()
for i in $(seq 1 "$runs"); do
  read -r w cw mw < <(once -Xshare:auto "$@")
  read -r c cc mc < <(once "$use" "$@")
  without+=("$w") cpu_without+=("$cw") with+=("$c") cpu_with+=("$cc")
  ratios+=("$(awk -v a="$c" -v b="$w" 'BEGIN{printf "%.2f", a/b}')")
  echo "run $i: without $w ms (CPU $cw ms), with $c ms (CPU $cc ms), ratio ${ratios[-1]}; main thread's CPU without $mw ms, with $mc ms; $(uptime | sed 's/.*load/load/')" >&2
done
# The median and, in brackets, the spread (lowest-highest).
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END{printf "%s (%s-%s)", (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2), a[1], a[NR]}'; }
echo "median: without archive $(median "${without[@]}") ms (CPU $(median "${cpu_without[@]}") ms), with $(median "${with[@]}") ms (CPU $(median "${cpu_with[@]}") ms); with/without per run: ${ratios[*]}, median $(median "${ratios[@]}")"
if [ -n "${COLD_START_PHASES:-}" ]; then
  phases=1
  echo "phases without the archive:" >&2; once -Xshare:auto "$@" >/dev/null
  echo "phases with the archive:" >&2; once "$use" "$@" >/dev/null
fi
