#!/usr/bin/env bash
# `make bench-stream` (in `make bench`), issue 33's figures:
#   - SQLite, one server: STREAMS (10,000) idle live streams; the server's memory per stream; the
#     time from an admin upsert returning to each stream receiving the item (ITEMS important
#     items, one after another); the visitor's home feed per second without and with them open.
#   - PostgreSQL, two servers on one database: PG_STREAMS streams on server B, items upserted
#     through server A, so each one crosses by NOTIFY.
# The clients are server/examples/stream_load.rs, a second process on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-lib.sh

streams=${STREAMS:-10000}
pg_streams=${PG_STREAMS:-2000}
items=${ITEMS:-10}
admin=bench-admin-token-0123456789
load=target/release/examples/stream_load
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

# Each stream is a socket on both ends (the clients are one process, the server another).
ulimit -n "$(ulimit -Hn)"
if [ "$(ulimit -n)" -lt $((streams + 1000)) ]; then
  echo "the open-file limit $(ulimit -n) is below $((streams + 1000)); lower STREAMS" >&2
  exit 1
fi
# The benchmark opens every stream from loopback: the per-client and total caps are raised.
export ADMIN_TOKEN=$admin STREAM_MAX=$((streams + 100)) STREAM_PER_CLIENT=$((streams + 100))

client_pid=
trap '[ -z "$client_pid" ] || kill "$client_pid" 2>/dev/null || true; cleanup' EXIT

start_clients() { # $1 = stream base, $2 = upsert base, $3 = streams: waits until all are open
  rm -f "$work/clients.in" "$work/clients.out"
  mkfifo "$work/clients.in"
  "$load" "$1" "$2" "$admin" "$3" "$items" < "$work/clients.in" > "$work/clients.out" &
  client_pid=$!
  exec 3> "$work/clients.in"
  until grep -q '^opened' "$work/clients.out"; do
    kill -0 "$client_pid" || { echo "the clients stopped" >&2; exit 1; }
    sleep 0.2
  done
}

deliver() { # lets the clients upsert their items; prints their figures once every item is timed
  echo go >&3
  until grep -q '^holding' "$work/clients.out"; do
    kill -0 "$client_pid" || { echo "the clients stopped" >&2; exit 1; }
    sleep 0.2
  done
  grep '^{' "$work/clients.out"
}

stop_clients() {
  exec 3>&-
  wait "$client_pid" || true
  client_pid=
}

echo "## SQLite, one server, $streams streams"
DEMO_CONTENT=true start_server ""
echo '{}' > "$work/empty.json"
lua "$work/empty.json" application/json "" > "$work/visitor.lua"
echo "| database | call | req/s | items/s | p50 | p99 | server CPU |"
echo "|---|---|---|---|---|---|---|"
run_wrk sqlite /feed/list "$work/visitor.lua" 20 "visitor, no streams"
sleep 1
before=$(rss_kib "$server_pid")
start_clients "$base" "$base" "$streams"
sleep 2
after=$(rss_kib "$server_pid")
figures=$(deliver)
run_wrk sqlite /feed/list "$work/visitor.lua" 20 "visitor, $streams streams open"
stop_clients
echo
echo "opening: $(grep '^opened' "$work/clients.out")"
echo "server RSS: $((before / 1024)) MiB before, $((after / 1024)) MiB with $streams streams: $(((after - before) * 1024 / streams)) bytes a stream"
echo "delivery (upsert returned → stream received, $items items × $streams streams): $figures"
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
server_pid=

echo
echo "## PostgreSQL, two servers, $pg_streams streams on B, items upserted through A"
psql -q "$TEST_POSTGRES_URL" -c "CREATE DATABASE bench_stream" >/dev/null
url="${TEST_POSTGRES_URL%/*}/bench_stream"
BENCH_DATA="$work/data-a" start_server "$url"
base_a=$base pid_a=$server_pid
trap '[ -z "$client_pid" ] || kill "$client_pid" 2>/dev/null || true; kill "$pid_a" 2>/dev/null || true; cleanup' EXIT
BENCH_DATA="$work/data-b" start_server "$url"
start_clients "$base" "$base_a" "$pg_streams"
figures=$(deliver)
stop_clients
echo "delivery across servers ($items items × $pg_streams streams): $figures"
