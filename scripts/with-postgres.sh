#!/usr/bin/env bash
# Runs a command beside a throw-away PostgreSQL cluster on a free loopback port, with
# TEST_POSTGRES_URL pointing at it; the cluster is stopped and deleted afterwards.
set -euo pipefail

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$pg_bin/initdb" ] || { echo "PostgreSQL is not installed (make setup installs it)" >&2; exit 1; }

# In memory where there is a tmpfs: the API tests create a database for each test, and on ext4
# the kernel's inode allocation for their files took a fifth of the test run's CPU (perf).
dir=$(mktemp -d /dev/shm/blockbrief-pg.XXXXXX 2>/dev/null || mktemp -d /tmp/blockbrief-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# initdb refuses to run as root: run the cluster as the postgres user then.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$dir"

# UTF-8 with a Unicode-aware ctype, so pg_trgm sees Chinese and Korean letters as letters.
as_pg "$pg_bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
stop() { as_pg "$pg_bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap stop EXIT
# Durability is not wanted in a test cluster; many parallel test apps want many connections.
as_pg "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=600" \
  start >/dev/null

export TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
"$@"
