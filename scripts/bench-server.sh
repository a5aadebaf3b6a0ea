#!/usr/bin/env bash
# `make bench-server`: requests per second and p50/p99 latency of POST /api/user/gtoken and an
# authenticated POST /api/user/account/list, on SQLite and on PostgreSQL (TEST_POSTGRES_URL, set
# by with-postgres.sh), with wrk as a second process on loopback. The server's CPU use over each
# run is read from /proc (200% = both cores of this machine).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=target/release/blockbrief
seconds=${BENCH_SECONDS:-10}
connections=${BENCH_CONNECTIONS:-32}
work=$(mktemp -d /tmp/blockbrief-bench.XXXXXX)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
post() { curl -sf -X POST -H 'content-type: application/json' "$@"; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

start_server() { # $1 = database URL or empty for the embedded SQLite
  local port; port=$(free_port)
  base="http://127.0.0.1:$port"
  rm -rf "$work/data"
  DATA_DIR="$work/data" BIND_ADDR="127.0.0.1:$port" DATABASE_URL="$1" RUST_LOG="warn,otp=info" \
    "$bin" > "$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do curl -sf "$base/api/health" >/dev/null && return; sleep 0.1; done
  echo "server did not start" >&2; cat "$work/server.log" >&2; exit 1
}

sign_in() { # prints a user token, signing in the way a person does (the code is in the log)
  post "$base/api/otp/email" -d '{"email":"bench@example.org","purpose":"login"}' >/dev/null
  local code; code=$(grep -o 'bench@example.org: [0-9]*' "$work/server.log" | tail -n 1 | cut -d' ' -f2)
  post "$base/api/user/login/email" -d "{\"email\":\"bench@example.org\",\"otp\":\"$code\"}" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["token"])'
}

run_wrk() { # $1 = label, $2 = path, $3 = token or empty
  cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.body = "{}"
wrk.headers["Content-Type"] = "application/json"
LUA
  [ -n "$3" ] && echo "wrk.headers[\"X-TOKEN\"] = \"$3\"" >> "$work/post.lua"
  local before after out
  before=$(ticks "$server_pid")
  out=$(wrk -t1 -c"$connections" -d"${seconds}s" --latency -s "$work/post.lua" "$base/api$2")
  after=$(ticks "$server_pid")
  if grep -q "Non-2xx" <<<"$out"; then echo "$out" >&2; echo "errors during $1 $2" >&2; exit 1; fi
  local rps p50 p99 cpu
  rps=$(awk '/^Requests\/sec/ {printf "%.0f", $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  cpu=$(( (after - before) * 100 / $(getconf CLK_TCK) / seconds ))
  printf '| %-10s | %-22s | %8s | %8s | %8s | %4s%% |\n' "$1" "$2" "$rps" "$p50" "$p99" "$cpu"
}

echo "wrk: 1 thread, $connections connections, ${seconds}s per run; $(nproc) cores shared by wrk and the server"
echo
echo "| database   | call                   |    req/s |      p50 |      p99 | server CPU |"
echo "|------------|------------------------|----------|----------|----------|-----|"
start_server ""
token=$(sign_in)
run_wrk sqlite /user/gtoken ""
run_wrk sqlite /user/account/list "$token"
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true

psql -q "$TEST_POSTGRES_URL" -c "CREATE DATABASE bench" >/dev/null
start_server "${TEST_POSTGRES_URL%/*}/bench"
token=$(sign_in)
run_wrk postgres /user/gtoken ""
run_wrk postgres /user/account/list "$token"
