#!/bin/bash
# Serves an app with a runtime image's own JVM, on the image's own root file system, in the
# foreground: the command a benchmark runs to compare the image with and without its
# class-data-sharing archive (the bench driver's --peer NAME=COMMAND; {java} and {jvm-flags} are not
# used: the image's JVM and its entrypoint's options are what is measured).
#   usage: image-peer.sh IMAGE_DIR with|without PORT APP.war [RUNTIME_OPTION...]
#   IMAGE_DIR: a built image's work folder, images/target/images/RUNTIME (rootfs/, dist/, cds/)
#   RUNTIME_OPTION: passed on to the runtime after the entrypoint's own, e.g. --mode http: the
#   serving mode of the driver's http peer (the archive covers both modes, docs/DEPLOY.md)
# e.g. --peer 'java21-cds=benchmarks/bin/image-peer.sh images/target/images/java21 with {port} {war} --mode http'
#      --peer 'java21-nocds=benchmarks/bin/image-peer.sh images/target/images/java21 without {port} {war} --mode http'
# The app is unpacked once per war (cached under $TMPDIR), its <runtime> the image's, without its <env-variables>, which an app
# image carries in its config: the runtime starts one JVM, as in a container. SIGTERM or SIGINT
# stops it (the JVM drains). Needs root (namespaces, chroot), as the image tests do.
set -eu
image=$(cd "${1:?usage: image-peer.sh IMAGE_DIR with|without PORT APP.war}" && pwd)
archive=${2:?with|without}
port=${3:?PORT}
war=$(cd "$(dirname "${4:?APP.war}")" && pwd)/$(basename "$4")
shift 4
root=$image/rootfs dist=$image/dist cds=$image/cds
[ "$(id -u)" = 0 ] || { echo "error: image-peer.sh needs root (namespaces and chroot)" >&2; exit 2; }
[ -d "$root" ] && [ -f "$dist/runtime-main.jar" ] || {
  echo "error: $image is not a built image (build it: mvn -B -pl images -am verify -Pall-images)" >&2; exit 2; }
# The JRE's own directory, not Debian's alias links to it (java-1.17.0-openjdk-amd64 ...).
java_home=$(cd "$root" && for d in usr/lib/jvm/java-*-openjdk-amd64; do [ -L "$d" ] || echo "$d"; done | head -1)
case "$archive" in
  with)
    file=$(ls "$cds" 2>/dev/null | grep -E '\.(jsa|aot)$' | head -1 || true)
    [ -n "$file" ] || { echo "error: $cds holds no archive (the image was built without root?)" >&2; exit 2; }
    case "$file" in *.aot) option="-XX:AOTCache=/opt/aerun/cds/$file" ;; *) option="-XX:SharedArchiveFile=/opt/aerun/cds/$file" ;; esac ;;
  without) option=-Xshare:auto; mkdir -p "$cds" ;;
  *) echo "error: with or without, not $archive" >&2; exit 2 ;;
esac
# The app's <runtime> is the image's (java-25-openjdk-amd64: java25), as an app for the image has it.
runtime=java$(echo "$java_home" | sed 's|.*/java-\([0-9]*\)-.*|\1|')
app=${TMPDIR:-/tmp}/aerun-image-peer-$runtime-$(sha256sum "$war" | cut -c1-16)
if [ ! -d "$app" ]; then
  mkdir -p "$app.tmp" && (cd "$app.tmp" && unzip -q "$war")
  sed -i '/<env-variables>/,/<\/env-variables>/d' "$app.tmp/WEB-INF/appengine-web.xml"
  sed -i "s|<runtime>[^<]*</runtime>|<runtime>$runtime</runtime>|" "$app.tmp/WEB-INF/appengine-web.xml"
  chmod -R a+rX "$app.tmp" && mv "$app.tmp" "$app"
fi
mkdir -p "$dist/cds" # the mount point of the archive's folder, as in the image
classpath=$("$(dirname "$0")/../../images/bin/runtime-classpath.sh" "$dist") # the image's entrypoint's
# unshare passes no signal on: a stop signal here is sent to its child, the JVM (sh and chroot exec
# it), which drains and exits; unshare then exits with it.
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin PORT="$port" AERUN_APP=/app DIST="$dist" APP="$app" CDS="$cds" \
  unshare --mount --pid --fork --kill-child sh -c '
    root=$1; shift
    mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" &&
    mount --bind "$DIST" "$root/opt/aerun" && mount --bind "$CDS" "$root/opt/aerun/cds" &&
    mount --bind "$APP" "$root/app" && exec chroot --userspec=65532:65532 "$root" "$@"' sh "$root" \
  "/$java_home/bin/java" "$option" -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError \
  -cp "$classpath" dev.aerun.main.Main --log-format json "$@" &
pid=$!
stop() {
  for child in $(cat "/proc/$pid/task/$pid/children" 2>/dev/null); do kill -TERM "$child" 2>/dev/null || true; done
}
trap stop TERM INT
while kill -0 "$pid" 2>/dev/null; do wait "$pid" && status=0 || status=$?; done
exit "${status:-0}"
