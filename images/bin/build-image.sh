#!/bin/sh
# Builds one runtime image, java17 | java21 | java25, as an OCI archive OUT/RUNTIME.tar with its
# digest in OUT/RUNTIME.tar.digest, without a container daemon and without root:
#   1. the pinned Debian packages of packages/RUNTIME.lock, downloaded once into the cache
#      (~/.cache/aerun-images/debs) and checked against their sha256;
#   2. unpacked with dpkg-deb (no maintainer scripts run: nothing executes inside the image), the
#      documentation trimmed to the packages' copyright files, a non-root user added;
#   3. written by the project's own image writer (runtime-stage's ImageTool): the root file system,
#      then the runtime (runtime-main.jar and lib/) at /opt/aerun, each a layer with fixed
#      timestamps and owners, so the same inputs give the same digest.
#   4. with the training apps (and root), a class-data-sharing archive of the runtime serving them
#      in both modes on every EE version (bin/train-cds.sh) in a third layer at /opt/aerun/cds,
#      which the entrypoint uses. The JDK does
#      not write that archive byte for byte the same twice: that layer is the one exception to the
#      same-digest rule (the layers below it keep their digests).
#   usage: images/bin/build-image.sh RUNTIME OUT RUNTIME_MAIN_TARGET [EE8_APP.war JAKARTA_APP.war]
#   (the training apps: a javax app for the EE8 runs, a jakarta one for the EE10 and EE11 runs);
#   RUNTIME may be a comma-separated list (java17,java21,java25): one image each, in turn.
set -eu
case "${1:-}" in
  *,*)
    runtimes=$1
    shift
    for one in $(echo "$runtimes" | tr ',' ' '); do
      "$0" "$one" "$@"
    done
    exit 0
    ;;
esac
here=$(cd "$(dirname "$0")/.." && pwd)
runtime=${1:?usage: build-image.sh java17|java21|java25 OUT RUNTIME_MAIN_TARGET}
out=${2:?OUT}
dist=${3:?RUNTIME_MAIN_TARGET}
training=${4:-} training_jakarta=${5:-}
[ -z "$training" ] || [ -n "$training_jakarta" ] || { echo "error: two training apps: EE8_APP.war JAKARTA_APP.war" >&2; exit 2; }
lock="$here/packages/$runtime.lock"
[ -f "$lock" ] || { echo "error: no $lock: run images/bin/refresh-lock.sh $runtime" >&2; exit 2; }
[ -f "$dist/runtime-main.jar" ] || { echo "error: no $dist/runtime-main.jar: build runtime-main first" >&2; exit 2; }
for tool in dpkg-deb apt-get sha256sum java jar; do
  command -v "$tool" >/dev/null || { echo "error: $tool is needed to build the images (Debian: apt-get install dpkg apt coreutils, and a JDK for java and jar)" >&2; exit 2; }
done
AERUN_SUITE=$(awk '$1=="suite"{print $2}' "$lock")
. "$here/bin/apt-env.sh"

# 1. The packages.
updated=no
debs=""
while read -r pkg version arch sha; do
  case "$pkg" in ''|'#'*|suite) continue ;; esac
  deb="$AERUN_CACHE/debs/${pkg}_$(echo "$version" | sed 's/:/%3a/')_${arch}.deb"
  if [ ! -f "$deb" ] || [ "$(sha256sum "$deb" | cut -d' ' -f1)" != "$sha" ]; then
    if [ "$updated" = no ]; then apt_update; updated=yes; fi
    rm -f "$deb"
    # shellcheck disable=SC2086
    if ! (cd "$AERUN_CACHE/debs" && apt-get $APT_OPTS -qq download "$pkg:$arch=$version" >&2); then
      echo "error: $pkg=$version (pinned in images/packages/$runtime.lock) is no longer served: run images/bin/refresh-lock.sh $runtime" >&2
      exit 1
    fi
  fi
  got=$(sha256sum "$deb" | cut -d' ' -f1)
  if [ "$got" != "$sha" ]; then
    echo "error: $pkg=$version has sha256 $got, the lock says $sha: run images/bin/refresh-lock.sh $runtime" >&2
    exit 1
  fi
  debs="$debs $deb"
done < "$lock"

# 2. The root file system.
work="$out/$runtime"
rm -rf "$work"
mkdir -p "$work/rootfs" "$work/dist"
root="$work/rootfs"
for deb in $debs; do
  dpkg-deb -x "$deb" "$root"
done
find "$root/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -exec rm -f {} + 2>/dev/null || true
find "$root/usr/share/doc" -depth -mindepth 1 -type d -empty -delete 2>/dev/null || true
rm -rf "$root/usr/share/man" "$root/usr/share/info" "$root/usr/share/lintian" "$root/usr/share/bug" \
  "$root/etc/init.d" "$root/etc/cron.daily" "$root/etc/logrotate.d" "$root/usr/share/bash-completion"
mkdir -p "$root/etc" "$root/tmp" "$root/proc" "$root/sys" "$root/dev" "$root/home/nonroot" "$root/app" "$root/opt/aerun"
chmod 1777 "$root/tmp"
printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$root/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' > "$root/etc/group"
# The JRE's own directory, not Debian's alias links to it (java-1.17.0-openjdk-amd64 ...).
java_home=$(cd "$root" && for d in usr/lib/jvm/java-*-openjdk-amd64; do [ -L "$d" ] || echo "$d"; done | head -1)
[ -x "$root/$java_home/bin/java" ] || { echo "error: no JRE in $lock" >&2; exit 1; }
# The JRE's cacerts (a link to /etc/ssl/certs/java/cacerts), which Debian makes in a maintainer
# script, from the pinned CA certificates.
java -cp "$dist/lib/stage/*" dev.aerun.stage.oci.TrustStore \
  "$root/usr/share/ca-certificates" "$root/etc/ssl/certs/java/cacerts"

# 3. The runtime, without the staging tools (lib/stage) and the development server's local API
#    host (lib/apihost): a server never stages, and an image never runs the dev server.
cp "$dist/runtime-main.jar" "$work/dist/"
cp -R "$dist/lib" "$work/dist/lib"
rm -rf "$work/dist/lib/stage" "$work/dist/lib/apihost"
# The response codecs' native libraries for the image's platform (linux, amd64), out of their jars
# once here: the launcher points the codecs at lib/native (NativeCodecs), where each would otherwise
# copy its library into /tmp at every start and load it from there.
natives=$(mktemp -d)
for jar in "$work/dist/lib"/native-linux-x86_64-*.jar "$work/dist/lib"/zstd-jni-*.jar; do
  (cd "$natives" && jar -xf "$jar" lib/linux-x86_64/libbrotli.so linux/amd64)
done
mkdir -p "$work/dist/lib/native"
cp "$natives/lib/linux-x86_64/libbrotli.so" "$work/dist/lib/native/libbrotli.so"
cp "$natives"/linux/amd64/libzstd-jni-*.so "$work/dist/lib/native/libzstd-jni.so"
rm -rf "$natives"

# 4. The class-data-sharing archive.
cds_layer="" cds_option=""
if [ -n "$training" ]; then
  set +e
  cds_option=$("$here/bin/train-cds.sh" "$runtime" "$root" "$work/dist" "$work/cds" "$training" "$training_jakarta")
  status=$?
  set -e
  case $status in
    0) cds_layer="--layer $work/cds=opt/aerun/cds"; cds_option="\"$cds_option\"," ;;
    3) cds_option="" ;;
    *) exit 1 ;;
  esac
fi

# The runtime's class path with legacy mode's jars, as the training run had it.
classpath=$("$here/bin/runtime-classpath.sh" "$work/dist")
# shellcheck disable=SC2086
java -cp "$dist/lib/stage/*" dev.aerun.stage.oci.ImageTool \
  --out "$out/$runtime.tar" --ref "aerun/$runtime:latest" \
  --layer "$root@rootfs" --layer "$work/dist=opt/aerun" $cds_layer \
  --entrypoint "[\"/$java_home/bin/java\",$cds_option\"-XX:MaxRAMPercentage=75\",\"-XX:+ExitOnOutOfMemoryError\",\"-cp\",\"$classpath\",\"dev.aerun.main.Main\",\"--log-format\",\"json\"]" \
  --env PORT=8080 --env AERUN_APP=/app --env "JAVA_HOME=/$java_home" \
  --user 65532:65532 --workdir / --port 8080 \
  --label "org.opencontainers.image.title=aerun $runtime" >/dev/null
echo "$runtime: $(cat "$out/$runtime.tar.digest") $out/$runtime.tar" >&2
