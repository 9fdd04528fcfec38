#!/bin/sh
# Bakes the class-data-sharing archive of an image: runs the image's JVM on its own root file
# system (new mount and PID namespaces, chroot, the image's user) serving the sample apps, and
# keeps what it archived when it stopped: JDK 17 and 21 a dynamic AppCDS archive, JDK 25 an AOT
# cache. The one training JVM (the runtime's dev.aerun.main.Training) serves the sample app in both
# modes, legacy RPC and HttpConnector, on the image's default EE version (EE8 with the javax app,
# EE10 and EE11 with the jakarta one): the JVM writes one archive per process, which so covers
# both modes. It requests a JSP too, so that JSP compilation's classes (Jasper's compiler, the
# Eclipse compiler it runs) are in the archive for an app's first JSP request.
#   usage: train-cds.sh RUNTIME ROOTFS DIST OUT_DIR EE8_APP.war JAKARTA_APP.war
# Writes OUT_DIR/aerun.jsa (17, 21) or OUT_DIR/aerun.aot (25) and prints the JVM options that use
# it. Needs root (namespaces, chroot); exits 3 without it, and the image is built without the archive.
set -eu
runtime=$1 root=$2 dist=$3 out=$4
javax=$(cd "$(dirname "$5")" && pwd)/$(basename "$5")
jakarta=$(cd "$(dirname "$6")" && pwd)/$(basename "$6")
[ "$(id -u)" = 0 ] || { echo "train-cds: not root: no class-data-sharing archive" >&2; exit 3; }
# The JRE's own directory, not Debian's alias links to it (java-1.17.0-openjdk-amd64 ...).
java_home=$(cd "$root" && for d in usr/lib/jvm/java-*-openjdk-amd64; do [ -L "$d" ] || echo "$d"; done | head -1)
case "$runtime" in
  java25) file=aerun.aot; train="-XX:AOTCacheOutput=/tmp/$file"; use="-XX:AOTCache=/opt/aerun/cds/$file" ;;
  *) file=aerun.jsa; train="-XX:ArchiveClassesAtExit=/tmp/$file"; use="-XX:SharedArchiveFile=/opt/aerun/cds/$file" ;;
esac
# The class path of the image's entrypoint, legacy mode's jars listed (the archive checks it).
classpath=$("$(dirname "$0")/runtime-classpath.sh" "$dist")
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
for pair in "ee8=$javax" "jakarta=$jakarta"; do
  mkdir "$app/${pair%%=*}"
  (cd "$app/${pair%%=*}" && "${JAVA_HOME:+$JAVA_HOME/bin/}jar" -xf "${pair#*=}" 2>/dev/null || unzip -q "${pair#*=}")
  descriptor="$app/${pair%%=*}/WEB-INF/appengine-web.xml"
  # Without its <env-variables>, which would make the launcher start a second JVM to set them (an
  # image carries them in its environment instead): the training run is the one JVM.
  sed -i '/<env-variables>/,/<\/env-variables>/d' "$descriptor"
  # The app's <runtime> is the image's, as an app for this image declares it.
  sed -i "s|<runtime>[^<]*</runtime>|<runtime>$runtime</runtime>|" "$descriptor"
done
chmod -R a+rX "$app"
# Both modes on the image's runtime's default EE version (java17 EE8, java21 EE10, java25 EE11).
# Not the other EE versions too: their loaders hold classes of the same names (lib/eeN each has
# jetty-ee-webapp, jetty-plus, asm ...), of which an archive keeps one, and which one is up to
# the JVM; a class whose supertype it dropped is dropped too, the EE's WebAppContext among them.
case "$runtime" in
  java17) ee=ee8 dir=/app/ee8 ;;
  java21) ee=ee10 dir=/app/jakarta ;;
  *) ee=ee11 dir=/app/jakarta ;;
esac
set -- "--log-format json --mode legacy --ee $ee $dir" "--log-format json --mode http --ee $ee $dir"
# The image's files as the container sees them: jars dated at the epoch, as the layers date them,
# so that the archive's check of the class path matches in the container.
find "$dist" -exec touch -h -d @0 {} +
log="$out.log"
mkdir -p "$out"
rm -f "$root/tmp/$file"
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DIST="$dist" APP="$app" unshare --mount --pid --fork --kill-child sh -c '
  root=$1; shift
  mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" &&
  mount --bind "$DIST" "$root/opt/aerun" &&
  mount --bind "$APP" "$root/app" &&
  exec chroot --userspec=65532:65532 "$root" "$@"' sh "$root" \
  "/$java_home/bin/java" -XX:-UsePerfData -XX:MaxRAMPercentage=75 $train \
  -cp "$classpath" dev.aerun.main.Training /hello,/request-info,/jstl.jsp "$@" \
  > "$log" 2>&1 || { echo "error: the training run failed:" >&2; cat "$log" >&2; exit 1; }
[ -s "$root/tmp/$file" ] || { echo "error: the training run wrote no archive:" >&2; cat "$log" >&2; exit 1; }
mv "$root/tmp/$file" "$out/$file"
# The root file system as it was: the training run leaves nothing in the image's /tmp.
find "$root/tmp" -mindepth 1 -delete
chmod 644 "$out/$file"
echo "$use"
