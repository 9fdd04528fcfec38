#!/bin/sh
# Bakes the class-data-sharing archive of an image: runs the image's JVM on its own root file
# system (new mount and PID namespaces, chroot, the image's user) serving the sample apps, and
# keeps what it archived when it stopped: JDK 17 and 21 a dynamic AppCDS archive, JDK 25 an AOT
# cache. The one training JVM (the runtime's dev.aerun.main.Training) serves both modes, legacy RPC
# and HttpConnector, on each EE version (EE8 with the javax app, EE10 and EE11 with the jakarta
# one), the image's default EE version first: the JVM writes one archive per process, and so it
# covers every mode and EE version an app on the image may choose.
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
# Both modes on every EE version, the image's runtime's default one (java17 EE8, java21 EE10,
# java25 EE11) first: where two EE versions' loaders hold a class of the same name (the servlet
# API's), the archive keeps the first one's.
case "$runtime" in
  java17) ees="ee8 ee10 ee11" ;;
  java21) ees="ee10 ee11 ee8" ;;
  *) ees="ee11 ee10 ee8" ;;
esac
set --
for ee in $ees; do
  dir=/app/jakarta; [ "$ee" = ee8 ] && dir=/app/ee8
  for mode in legacy http; do set -- "$@" "--log-format json --mode $mode --ee $ee $dir"; done
done
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
  -cp /opt/aerun/runtime-main.jar dev.aerun.main.Training /hello,/request-info "$@" \
  > "$log" 2>&1 || { echo "error: the training run failed:" >&2; cat "$log" >&2; exit 1; }
[ -s "$root/tmp/$file" ] || { echo "error: the training run wrote no archive:" >&2; cat "$log" >&2; exit 1; }
mv "$root/tmp/$file" "$out/$file"
# The root file system as it was: the training run leaves nothing in the image's /tmp.
find "$root/tmp" -mindepth 1 -delete
chmod 644 "$out/$file"
echo "$use"
