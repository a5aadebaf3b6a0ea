#!/usr/bin/env bash
# `make bench-stories`: story grouping at ingest with 100,000 stored items, on SQLite and on
# PostgreSQL (TEST_POSTGRES_URL, set by with-postgres.sh), with wrk on loopback.
#   - ingest: /admin/feed/upsert of new items (the labelled set's 303 texts in turn, each with its
#     own link, published over the last 48 hours, so every one is fingerprinted, looked up in the
#     story index and joins the story of the same text's earlier copies), one importer and then four
#     at once: items per second and time per item;
#   - then the home feed's first page, newest and hot, at BENCH_CONNECTIONS (32).
# BENCH_DATABASES narrows a run (e.g. BENCH_DATABASES=sqlite).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-lib.sh

export ADMIN_TOKEN=bench-admin-token
python3 - "$work/ingest.json" <<'PY'
import json, sys, time
events = json.load(open("server/demo/stories.json"))["events"]
texts = [(e, item) for e in events for item in e["items"]]
now = int(time.time())
with open(sys.argv[1], "w") as out:
    for n in range(40000):
        event, (lang, source, minutes, title, summary) = texts[n % len(texts)]
        body = {"source_url": f"https://bench.test/{n}", "kind": "flash", "lang": lang,
                "source_name": source, "title": title, "summary": summary,
                "published_at": now - (n * 7) % 172800, "tokens": event["tokens"]}
        out.write(json.dumps(body, ensure_ascii=False) + "\n")
PY
# Two halves: each run sends items not stored yet.
head -n 20000 "$work/ingest.json" > "$work/ingest-1.json"
tail -n +20001 "$work/ingest.json" > "$work/ingest-4.json"
for half in 1 4; do
  lua_rotating "$work/ingest-$half.json" | sed "s/^local bodies/wrk.headers[\"X-ADMIN-TOKEN\"] = \"$ADMIN_TOKEN\"\nlocal bodies/" > "$work/ingest-$half.lua"
done
echo '{"tab":"for_you","limit":20}' > "$work/first.json"
echo '{"tab":"for_you","limit":20,"sort":"hot"}' > "$work/hot.json"

echo "wrk: 1 thread, $connections connections (ingest: 1 and 4), ${seconds}s per run; $(nproc) cores shared by wrk and the server"
echo
echo "| database   | call                                 |    req/s |   items/s |      p50 |      p99 | server CPU |"
echo "|------------|--------------------------------------|----------|-----------|----------|----------|-----|"
for database in ${BENCH_DATABASES:-sqlite postgres}; do
  url=$(database_url "$database" bench_stories)
  rm -rf "$work/data"
  DATA_DIR="$work/data" DATABASE_URL="$url" "$bin" generate --items 100000 >&2
  start_server "$url" keep
  # One importer after another (each item's own time), then four at once.
  connections=1 seconds=20 run_wrk "$database" /admin/feed/upsert "$work/ingest-1.lua" 1 "100,000 stored, 1 conn"
  connections=4 seconds=20 run_wrk "$database" /admin/feed/upsert "$work/ingest-4.lua" 1 "100,000 stored, 4 conns"
  grep "slow statement" "$work/server.log" | grep -o 'summary="[^"]*' | sort | uniq -c | sort -rn | head -5 >&2 || true
  for body in first hot; do
    lua "$work/$body.json" application/json "" > "$work/$body.lua"
  done
  run_wrk "$database" /feed/list "$work/first.lua" 20 "with stories, first page"
  run_wrk "$database" /feed/list "$work/hot.lua" 20 "with stories, hot, first page"
  kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
done
