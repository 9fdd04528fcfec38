#!/bin/sh
# Sourced by the image scripts: an apt configuration of our own for one Debian suite, under the
# cache directory, whose sources are the machine's own Debian mirrors (read from /etc/apt, never
# written into the repository) with the suite replaced. Nothing of the machine's apt state changes.
#   AERUN_SUITE   bookworm | trixie
#   AERUN_CACHE   cache directory (default ~/.cache/aerun-images)
set -eu
: "${AERUN_CACHE:=${HOME}/.cache/aerun-images}"
APT_ROOT="$AERUN_CACHE/apt-$AERUN_SUITE"
mkdir -p "$APT_ROOT/lists/partial" "$APT_ROOT/archives/partial" "$APT_ROOT/sources" "$AERUN_CACHE/debs"
: > "$APT_ROOT/status"

# The machine's Debian sources: deb822 (*.sources) and one-line (*.list, sources.list) entries,
# reduced to "URI KEYRING" pairs of type deb.
machine_sources() {
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    case "$f" in
      *.sources)
        awk 'BEGIN{RS="";FS="\n"} {
               t="";u="";k="";
               for(i=1;i<=NF;i++){ if($i ~ /^#/) continue;
                 if($i ~ /^Types:/) t=$i; if($i ~ /^URIs:/) u=$i; if($i ~ /^Signed-By:/) k=$i }
               if(t ~ /deb( |$)/ && u != ""){ sub(/^URIs:[ \t]*/,"",u); sub(/^Signed-By:[ \t]*/,"",k);
                 n=split(u,us,/[ \t]+/); for(j=1;j<=n;j++) print us[j], (k==""?"-":k) } }' "$f" ;;
      *)
        awk '$1=="deb"{ k="-"; u=$2; if($2 ~ /^\[/){ for(i=2;i<=NF;i++){ if($i ~ /signed-by=/){k=$i; sub(/.*signed-by=/,"",k); sub(/\]$/,"",k)} if($i ~ /\]$/){u=$(i+1);break} } } print u, k }' "$f" ;;
    esac
  done | awk '$1 ~ /debian/' | sort -u
}

{
  machine_sources | while read -r uri key; do
    if [ "$key" = "-" ]; then key=/usr/share/keyrings/debian-archive-keyring.gpg; fi
    case "$uri" in
      *security*) suites="$AERUN_SUITE-security" ;;
      *) suites="$AERUN_SUITE $AERUN_SUITE-updates" ;;
    esac
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n\n' "$uri" "$suites" "$key"
  done
} > "$APT_ROOT/sources/debian.sources"
if ! grep -q URIs "$APT_ROOT/sources/debian.sources"; then
  echo "error: no Debian source in /etc/apt to take the mirror from" >&2
  exit 1
fi

APT_OPTS="-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$APT_ROOT/sources
 -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
 -o Dir::State::Lists=$APT_ROOT/lists -o Dir::State::status=$APT_ROOT/status
 -o Dir::Cache=$APT_ROOT -o Dir::Cache::archives=$APT_ROOT/archives
 -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
 -o APT::Architecture=amd64 -o APT::Architectures=amd64 -o APT::Sandbox::User=root
 -o Debug::NoLocking=1 -o Acquire::Languages=none"

apt_update() {
  # shellcheck disable=SC2086
  apt-get $APT_OPTS -qq update >&2
}
