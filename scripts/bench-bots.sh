#!/usr/bin/env bash
# `make bench-bots` (in `make bench`), on SQLite and on PostgreSQL (TEST_POSTGRES_URL, set by
# with-postgres.sh): one important item fanned out to CHATS (10,000) subscribed Telegram chats.
#   - queue: the publishing request's time, which queues every delivery in its transaction;
#   - send: messages a second accepted by a local Telegram API that enforces Telegram's limits
#     (scripts/fake_telegram.py), over SEND_SECONDS, and the 429s it answered;
#   - the server's resident memory before the item and after the run.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-lib.sh

chats=${CHATS:-10000}
send_seconds=${SEND_SECONDS:-30}
admin=bench-admin-token-0123456789
rss_mib() { awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$server_pid/status"; }

fake_port=$(free_port)
python3 scripts/fake_telegram.py "$fake_port" &
fake_pid=$!
trap 'kill $fake_pid 2>/dev/null || true; cleanup' EXIT
sleep 0.5

subscribe_sql() { # $1 = now: CHATS active private chats, each subscribed to `important`
  echo "BEGIN;"
  echo "INSERT INTO bot_chats (platform, chat_ref, thread_id, kind, locale, state, digest, digest_at, muted, created_at) SELECT 'telegram', CAST(100000 + n AS TEXT), 0, 'private', 'en', 'active', 'off', $1, '[]', $1 FROM ($2) AS s(n);"
  echo "INSERT INTO bot_subscriptions (chat_id, target, target_id, created_at) SELECT id, 'important', 0, $1 FROM bot_chats;"
  echo "COMMIT;"
  # As autovacuum (PostgreSQL) would after a bulk change, so the planner knows the tables.
  echo "ANALYZE;"
}

echo "| database | chats | queue (publish request) | sent/s over ${send_seconds}s | 429s | RSS before → after |"
echo "|---|---|---|---|---|---|"
for database in sqlite postgres; do
  if [ "$database" = sqlite ]; then
    url=""
  else
    psql -q "$TEST_POSTGRES_URL" -c "CREATE DATABASE bench_bots" >/dev/null
    url="${TEST_POSTGRES_URL%/*}/bench_bots"
  fi
  # Started once to create the schema, then the chats are written straight into the database.
  ADMIN_TOKEN=$admin TELEGRAM_BOT_TOKEN=1:bench TELEGRAM_API_URL="http://127.0.0.1:$fake_port" \
    TELEGRAM_WEBHOOK_SECRET=bench start_server "$url"
  now=$(date +%s)
  if [ "$database" = sqlite ]; then
    subscribe_sql "$now" "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < $chats) SELECT n FROM c" |
      sed 's/ AS s(n)//' | sqlite3 "$work/data/blockbrief.db"
  else
    subscribe_sql "$now" "SELECT generate_series(1, $chats)" | psql -q "$url" >/dev/null
  fi
  before=$(rss_mib)
  item="{\"source_url\":\"https://bench.test/$database\",\"kind\":\"flash\",\"lang\":\"en\",\"title\":\"Important bench item\",\"important\":true,\"published_at\":$now}"
  queue=$(curl -s -o /dev/null -w '%{time_total}' -X POST -H 'content-type: application/json' \
    -H "x-admin-token: $admin" "$base/api/admin/feed/upsert" -d "$item")
  start=$(date +%s.%N)
  sleep "$send_seconds"
  stats=$(curl -s "http://127.0.0.1:$fake_port/stats")
  after=$(rss_mib)
  python3 - "$stats" "$start" "$send_seconds" "$database" "$chats" "$queue" "$before" "$after" <<'PY'
import json, sys
stats, start, seconds = json.loads(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
database, chats, queue, before, after = sys.argv[4:9]
times = [t for t in stats["accepted"] if t >= start]
# The rate held: from the first message of the run to its end.
rate = len(times) / max(1e-9, start + seconds - times[0]) if times else 0
print(f"| {database} | {chats} | {float(queue) * 1000:.0f} ms | {rate:.1f} ({len(times)} sent) | {stats['too_many']} | {before} → {after} MiB |")
PY
  kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
  server_pid=
  # The next run counts from nothing.
  kill "$fake_pid"; wait "$fake_pid" 2>/dev/null || true
  python3 scripts/fake_telegram.py "$fake_port" &
  fake_pid=$!
  sleep 0.5
done
