#!/usr/bin/env bash
# `make bench-server`, on SQLite and on PostgreSQL (TEST_POSTGRES_URL, set by with-postgres.sh),
# with wrk as a second process on loopback; the server's CPU use over each run is read from /proc
# (200% = both cores of this machine).
#   1. sign-in core: POST /api/user/gtoken and an authenticated POST /api/user/account/list;
#   2. ingestion: POST /api/log/track with batches of 50 events, uploads of a 1 MB PNG, and the
#      server's peak memory while 20 uploads of 5 MB run at once.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-lib.sh

hwm_kib() { awk '/^VmHWM/ {print $2}' "/proc/$server_pid/status"; }

echo '{}' > "$work/empty.json"
python3 scripts/bench_files.py track-body 50 > "$work/track.json"
python3 scripts/bench_files.py upload-body 1000000 > "$work/upload.body"
multipart="multipart/form-data; boundary=blockbriefbench"

echo "wrk: 1 thread, $connections connections, ${seconds}s per run; $(nproc) cores shared by wrk and the server"
echo
echo "| database   | call                                 |    req/s |   items/s |      p50 |      p99 | server CPU |"
echo "|------------|--------------------------------------|----------|-----------|----------|----------|-----|"
for database in sqlite postgres; do
  if [ "$database" = sqlite ]; then
    url=""
  else
    psql -q "$TEST_POSTGRES_URL" -c "CREATE DATABASE bench" >/dev/null
    url="${TEST_POSTGRES_URL%/*}/bench"
  fi
  start_server "$url"
  token=$(sign_in)
  lua "$work/empty.json" application/json "" > "$work/guest.lua"
  lua "$work/empty.json" application/json "$token" > "$work/auth.lua"
  lua "$work/track.json" application/json "" > "$work/track.lua"
  lua "$work/upload.body" "$multipart" "$token" > "$work/upload.lua"
  run_wrk "$database" /user/gtoken "$work/guest.lua"
  run_wrk "$database" /user/account/list "$work/auth.lua"
  run_wrk "$database" /log/track "$work/track.lua" 50 "50 events"
  run_wrk "$database" /img/upload/feedback/v2 "$work/upload.lua" 1 "1 MB PNG"
  kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
done

echo
echo "Peak memory of a fresh server (SQLite) while 20 uploads of 5 MB run at once:"
start_server ""
before=$(hwm_kib)
ok=$(python3 scripts/bench_files.py burst "${base##*:}" 20 5000000 "$(sign_in)")
after=$(hwm_kib)
echo "- VmHWM before: $((before / 1024)) MiB; after: $((after / 1024)) MiB; uploads accepted: $ok of 20"
