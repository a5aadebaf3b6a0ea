#!/usr/bin/env bash
# `make bench-feed`: the home feed's first page for a visitor and for a signed-in reader, beside
# /api/health and /api/user/info, in one run on SQLite with the demo content (release build, wrk
# as a second process on loopback with BENCH_CONNECTIONS, 32 by default). The signed-in reader
# likes and keeps a few of the page's items, so their marks are really read. The hot order's
# first page, and its second page (cut from the stored ranking, not cached), beside them.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-lib.sh

export DEMO_CONTENT=true
start_server ""
token=$(sign_in)
ids=$(post "$base/api/feed/list" -d '{}' | python3 -c 'import json,sys; print(" ".join(str(i["id"]) for i in json.load(sys.stdin)["data"]["list"][:4]))')
for id in $ids; do
  post "$base/api/like/set" -H "X-TOKEN: $token" -d "{\"kind\":\"feed\",\"id\":$id,\"liked\":true}" >/dev/null
  post "$base/api/favorite/set" -H "X-TOKEN: $token" -d "{\"feed_id\":$id,\"favorited\":true}" >/dev/null
done
echo '{}' > "$work/empty.json"
lua "$work/empty.json" application/json "" > "$work/visitor.lua"
lua "$work/empty.json" application/json "$token" > "$work/reader.lua"
echo '{"sort":"hot"}' > "$work/hot.json"
lua "$work/hot.json" application/json "" > "$work/hot.lua"
cursor=$(post "$base/api/feed/list" -d '{"sort":"hot"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["next_cursor"])')
echo "{\"sort\":\"hot\",\"cursor\":\"$cursor\"}" > "$work/hot2.json"
lua "$work/hot2.json" application/json "" > "$work/hot2.lua"
cat > "$work/health.lua" <<'LUA'
wrk.method = "GET"
LUA

echo "wrk: 1 thread, $connections connections, ${seconds}s per run; $(nproc) cores shared by wrk and the server"
echo
echo "| database   | call                                 |    req/s |   items/s |      p50 |      p99 | server CPU |"
echo "|------------|--------------------------------------|----------|-----------|----------|----------|-----|"
run_wrk sqlite /health "$work/health.lua" 1 "GET"
run_wrk sqlite /feed/list "$work/visitor.lua" 20 "visitor, first page"
run_wrk sqlite /feed/list "$work/reader.lua" 20 "signed in, first page"
run_wrk sqlite /feed/list "$work/hot.lua" 20 "visitor, hot, first page"
run_wrk sqlite /feed/list "$work/hot2.lua" 20 "visitor, hot, second page"
run_wrk sqlite /user/info "$work/reader.lua" 1 "signed in"
