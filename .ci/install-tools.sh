#!/bin/sh
# Installs what the build needs on a fresh Debian machine (CI, Cloud Build), as root: a JDK 17,
# Maven, and the Debian tools the images are assembled with. Does nothing for what is there.
# PostgreSQL, for the session store tests, is installed by their own script when missing.
set -eu
need=""
command -v java >/dev/null || need="$need openjdk-17-jdk-headless"
command -v mvn >/dev/null || need="$need maven"
command -v dpkg-deb >/dev/null || need="$need dpkg"
command -v unshare >/dev/null || need="$need util-linux"
command -v tar >/dev/null || need="$need tar"
if [ -n "$need" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "error: missing$need; install them (Debian: apt-get install$need)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need ca-certificates
fi
