#!/bin/sh
# Bakes the class-data-sharing archive of an image: runs the image's JVM on its own root file
# system (new mount and PID namespaces, chroot, the image's user) serving a sample app, and keeps
# what it archived when it stopped: JDK 17 and 21 a dynamic AppCDS archive, JDK 25 an AOT cache.
#   usage: train-cds.sh RUNTIME ROOTFS DIST APP.war OUT_DIR
# Writes OUT_DIR/aerun.jsa (17, 21) or OUT_DIR/aerun.aot (25) and prints the JVM options that use
# it. Needs root (namespaces, chroot); exits 3 without it, and the image is built without the archive.
set -eu
runtime=$1 root=$2 dist=$3 out=$5
war=$(cd "$(dirname "$4")" && pwd)/$(basename "$4")
[ "$(id -u)" = 0 ] || { echo "train-cds: not root: no class-data-sharing archive" >&2; exit 3; }
# The JRE's own directory, not Debian's alias links to it (java-1.17.0-openjdk-amd64 ...).
java_home=$(cd "$root" && for d in usr/lib/jvm/java-*-openjdk-amd64; do [ -L "$d" ] || echo "$d"; done | head -1)
case "$runtime" in
  java25) file=aerun.aot; train="-XX:AOTCacheOutput=/tmp/$file"; use="-XX:AOTCache=/opt/aerun/cds/$file" ;;
  *) file=aerun.jsa; train="-XX:ArchiveClassesAtExit=/tmp/$file"; use="-XX:SharedArchiveFile=/opt/aerun/cds/$file" ;;
esac
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
(cd "$app" && "${JAVA_HOME:+$JAVA_HOME/bin/}jar" -xf "$war" 2>/dev/null || unzip -q "$war")
chmod -R a+rX "$app"
# Without its <env-variables>, which would make the launcher start a second JVM to set them (an
# image carries them in its environment instead): the training run is the one JVM.
sed -i '/<env-variables>/,/<\/env-variables>/d' "$app/WEB-INF/appengine-web.xml"
# The app's <runtime> is the image's, as an app for this image declares it: the training run uses
# that runtime's default EE version (java17 EE8, java21 EE10, java25 EE11), whose loader's
# classes an archive then holds.
sed -i "s|<runtime>[^<]*</runtime>|<runtime>$runtime</runtime>|" "$app/WEB-INF/appengine-web.xml"
# The image's files as the container sees them: jars dated at the epoch, as the layers date them,
# so that the archive's check of the class path matches in the container.
find "$dist" -exec touch -h -d @0 {} +
log="$out.log"
mkdir -p "$out"
rm -f "$root/tmp/$file"
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin PORT=0 AERUN_APP=/app DIST="$dist" APP="$app" unshare --mount --pid --fork --kill-child sh -c '
  root=$1; shift
  mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" &&
  mount --bind "$DIST" "$root/opt/aerun" &&
  mount --bind "$APP" "$root/app" &&
  exec chroot --userspec=65532:65532 "$root" "$@"' sh "$root" \
  "/$java_home/bin/java" -XX:-UsePerfData -XX:MaxRAMPercentage=75 $train -jar /opt/aerun/runtime-main.jar --log-format json \
  > "$log" 2>&1 &
pid=$!
port=""
for _ in $(seq 1 600); do
  port=$(sed -n 's/.* at http:\/\/[^:]*:\([0-9]*\)\/.*/\1/p' "$log" | head -1)
  [ -n "$port" ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.5
done
if [ -z "$port" ]; then
  echo "error: the training run did not start:" >&2; cat "$log" >&2; exit 1
fi
# A few requests, so that the serving path's classes are archived too.
for path in /hello /request-info /hello; do
  bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && printf "GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" "$2" >&3 && cat <&3 >/dev/null' sh "$port" "$path" || true
done
# unshare's child is the JVM (sh and chroot exec it): SIGTERM ends the training run, writing the archive.
child=""
for stat in /proc/[0-9]*/stat; do
  set -- $(cat "$stat" 2>/dev/null || echo "0 x x 0")
  [ "$4" = "$pid" ] && child=$1
done
kill -TERM "$child"
wait $pid || true
[ -s "$root/tmp/$file" ] || { echo "error: the training run wrote no archive:" >&2; cat "$log" >&2; exit 1; }
mv "$root/tmp/$file" "$out/$file"
# The root file system as it was: the training run leaves nothing in the image's /tmp.
find "$root/tmp" -mindepth 1 -delete
chmod 644 "$out/$file"
echo "$use"
