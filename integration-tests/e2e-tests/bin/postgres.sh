#!/bin/sh
# A throw-away PostgreSQL server for the session store tests, under an unprivileged user
# (PostgreSQL refuses to run as root).
#   postgres.sh start DIR PORT   initdb in DIR/data, serve 127.0.0.1:PORT, trust local logins
#   postgres.sh createdb DIR PORT NAME   a new, empty database NAME on the server of postgres.sh start
#   postgres.sh stop DIR
# Uses Debian's postgresql package; as root, installs it when missing (CI's fresh machines) and
# runs the server as the system user aerun-pg, made on first use.
set -eu
command=${1:?usage: postgres.sh start DIR PORT | stop DIR}
dir=${2:?DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "error: PostgreSQL is not installed (Debian: apt-get install postgresql)" >&2
    exit 1
  fi
  echo "installing Debian's postgresql package" >&2
  apt-get update -qq >&2
  # No cluster of its own, no service started: this script makes the one it needs.
  mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.d/aerun-no-main.conf
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >&2
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
as_user() {
  if [ "$(id -u)" = 0 ]; then
    if ! id aerun-pg >/dev/null 2>&1; then
      useradd --system --no-create-home --shell /usr/sbin/nologin aerun-pg
    fi
    runuser -u aerun-pg -- "$@"
  else
    "$@"
  fi
}
case "$command" in
  start)
    port=${3:?PORT}
    mkdir -p "$dir"
    chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && { id aerun-pg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin aerun-pg; chown aerun-pg "$dir"; }
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_user "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    as_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 120 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >&2 \
      || { cat "$dir/server.log" >&2; exit 1; }
    ;;
  createdb)
    "$bin/createdb" -h 127.0.0.1 -p "${3:?PORT}" -U postgres "${4:?NAME}" >&2
    ;;
  stop)
    as_user "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >&2
    ;;
  *)
    echo "error: unknown command $command" >&2
    exit 2
    ;;
esac
