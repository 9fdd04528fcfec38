#!/bin/sh
# Installs wrk (a C HTTP load generator) from the machine's own Debian/Ubuntu package sources, for
# the benchmark driver's calibration (java -jar bench-driver.jar --calibrate). Needs root (or sudo).
# The package mirror is whatever apt is configured with on this machine.
set -eu
if command -v wrk >/dev/null 2>&1; then
  echo "wrk is already installed: $(command -v wrk)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: apt-get not found; install wrk with this system's package manager" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "error: installing wrk needs root (run as root or install sudo)" >&2
    exit 1
  fi
fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends wrk
echo "installed: $(command -v wrk)"
