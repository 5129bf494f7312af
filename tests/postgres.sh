# Sourced by tests/run.sh: a private PostgreSQL cluster for the room tests (issue 25), on a free
# loopback port in a temporary folder, stopped and deleted when the shell exits. Installs Debian's
# `postgresql` when missing. Exports LATENCY_TEST_PG_URL (tests/room/ and tests/e2e/test_room.py use it).
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$pg_bin" ]; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
pg_dir=$(mktemp -d /tmp/latency-pg.XXXXXX)
# PostgreSQL refuses to run as root: as root, the cluster belongs to Debian's `postgres` user.
if [ "$(id -u)" = 0 ]; then
  chown postgres "$pg_dir"
  pg_as() { runuser -u postgres -- "$@"; }
else
  pg_as() { "$@"; }
fi
pg_port=$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pg_as "$pg_bin/initdb" -D "$pg_dir/data" -A trust -U postgres -E UTF8 >/dev/null
pg_as "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w -t 60 \
  -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
pg_stop() { pg_as "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w stop >/dev/null 2>&1 || true; rm -rf "$pg_dir"; }
trap pg_stop EXIT
pg_as "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres latency_test
export LATENCY_TEST_PG_URL="postgresql://postgres@127.0.0.1:$pg_port/latency_test"
