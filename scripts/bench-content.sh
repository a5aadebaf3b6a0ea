#!/usr/bin/env bash
# `make bench-content`: the home feed and search with 10,000 and 100,000 generated feed items, on
# SQLite and on PostgreSQL (TEST_POSTGRES_URL, set by with-postgres.sh), with wrk on loopback.
#   - /feed/list first page: what every visitor of the home page asks for (built once a second);
#   - /feed/list with a cursor: a deeper page, always read from the database;
#   - /search: a Latin and a Chinese query, 24 popular queries in turn (result pages are cached
#     for a second, as for the feed), and a long tail of 3,000 distinct queries that miss the cache.
# BENCH_DATABASES and BENCH_ITEMS narrow a run (e.g. BENCH_DATABASES=sqlite).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-lib.sh

echo '{"tab":"for_you","limit":20}' > "$work/first.json"
echo '{"q":"bitcoin etf"}' > "$work/search-en.json"
echo '{"q":"比特幣"}' > "$work/search-zh.json"
# What readers type, in every language: names, symbols, phrases, a two-letter symbol (no trigram).
for q in bitcoin ethereum solana "bitcoin etf" "token unlock" stablecoin airdrop 比特幣 比特币 以太坊 \
    穩定幣 空投 비트코인 이더리움 에어드롭 "quỹ etf" BTC ETH SOL DOGE PEPE OP regulation "spot etf"; do
  printf '{"q":"%s"}\n' "$q"
done > "$work/search-mix.json"
lua_rotating "$work/search-mix.json" > "$work/search-mix.lua"
# The long tail: 3,000 distinct two-word queries (a token and a word of the demo stories, in
# a fixed shuffled order), so nearly every one misses the one-second result cache.
python3 - "$work/search-tail.json" <<'PY'
import json, random, re, sys
demo = json.load(open("server/demo/content.json"))
words = sorted({w.lower() for s in demo["stories"] for w in re.findall(r"[A-Za-z]{4,}", s["texts"]["en"]["title"] + " " + s["texts"]["en"]["summary"])})
names = [t["name"] for t in demo["catalogue"]["tokens"]]
queries = [f"{n} {w}" for n in names for w in words]
random.Random(7).shuffle(queries)
with open(sys.argv[1], "w") as out:
    for q in queries[:3000]:
        out.write(json.dumps({"q": q}) + "\n")
PY
lua_rotating "$work/search-tail.json" > "$work/search-tail.lua"
# Two-character queries, too short for the trigram index and most matching nothing: every pair of
# letters and digits, then 20,000 distinct pairs of CJK characters, shuffled, so that 16 loops of
# them miss the one-second result cache.
python3 - "$work/search-pairs.json" <<'PY'
import json, random, string, sys
alnum = string.ascii_lowercase + string.digits
pairs = [a + b for a in alnum for b in alnum]
rng = random.Random(11)
cjk = set()
while len(cjk) < 20000:
    cjk.add(chr(rng.randrange(0x4E00, 0x9FA5)) + chr(rng.randrange(0x4E00, 0x9FA5)))
rest = sorted(cjk)
rng.shuffle(rest)
with open(sys.argv[1], "w") as out:
    for q in pairs + rest:
        out.write(json.dumps({"q": q}, ensure_ascii=False) + "\n")
PY
lua_rotating "$work/search-pairs.json" > "$work/search-pairs.lua"
printf 'wrk.method = "GET"\n' > "$work/health.lua"

# The first 2,000 pairs alone, one after another: a query's own cost (curl's total time on
# loopback, an upper bound of the server's).
time_pairs() { # $1 = database, $2 = items
  local n=0
  while read -r body; do
    n=$((n + 1))
    post -o /dev/null -w '%{time_total}\n' -H "X-Forwarded-For: 100.65.$((n / 250)).$((n % 250))" \
      "$base/api/search" -d "$body"
  done < <(head -n 2000 "$work/search-pairs.json") | sort -n | awk -v db="$1" -v items="$2" '
    { t[NR] = $1 * 1000 }
    END { printf "| %-10s | %-36s | %8s | %9s | %6.2f ms | %6.2f ms | max %.2f ms |\n", db,
          "/search (" items " items, 2,000 pairs alone)", "-", "-", t[int(NR / 2)], t[int(NR * 0.99)], t[NR] }'
}

echo "wrk: 1 thread, $connections connections, ${seconds}s per run; $(nproc) cores shared by wrk and the server"
echo
echo "| database   | call                                 |    req/s |   items/s |      p50 |      p99 | server CPU |"
echo "|------------|--------------------------------------|----------|-----------|----------|----------|-----|"
for database in ${BENCH_DATABASES:-sqlite postgres}; do
  for items in ${BENCH_ITEMS:-10000 100000}; do
    url=$(database_url "$database" bench_content)
    rm -rf "$work/data"
    started=$(date +%s)
    DATA_DIR="$work/data" DATABASE_URL="$url" "$bin" generate --items "$items" >&2
    echo "generated $items items on $database in $(( $(date +%s) - started )) s" >&2
    start_server "$url" keep
    cursor=$(post "$base/api/feed/list" -d '{"limit":20}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["next_cursor"])')
    # A cursor 1,000 items deep.
    for _ in $(seq 49); do
      cursor=$(post "$base/api/feed/list" -d "{\"limit\":20,\"cursor\":\"$cursor\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["next_cursor"])')
    done
    echo "{\"limit\":20,\"cursor\":\"$cursor\"}" > "$work/deep.json"
    for body in first deep search-en search-zh; do
      lua "$work/$body.json" application/json "" > "$work/$body.lua"
    done
    run_wrk "$database" /feed/list "$work/first.lua" 20 "$items items, first page"
    run_wrk "$database" /feed/list "$work/deep.lua" 20 "$items items, page 51"
    run_wrk "$database" /search "$work/search-en.lua" 1 "$items items, bitcoin etf"
    run_wrk "$database" /search "$work/search-zh.lua" 1 "$items items, 比特幣"
    run_wrk "$database" /search "$work/search-mix.lua" 1 "$items items, 24 queries in turn"
    run_wrk "$database" /search "$work/search-tail.lua" 1 "$items items, 3,000 distinct queries"
    # Search at a lighter load too: latency there is the query's own cost, not queueing.
    connections=8 run_wrk "$database" /search "$work/search-en.lua" 1 "$items items, bitcoin etf, 8 conns"
    time_pairs "$database" "$items"
    # 16 loops of letter pairs in parallel, and what /api/health answers meanwhile.
    connections=16 run_wrk "$database" /search "$work/search-pairs.lua" 1 "$items items, pairs, 16 conns" &
    pairs=$!
    sleep 1
    connections=1 seconds=$((seconds - 2)) run_wrk "$database" /health "$work/health.lua" 1 "during the 16 pair loops"
    wait "$pairs"
    kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
    if [ "$database" = postgres ]; then
      # Started again on the same data directory: the search copy is reused and caught up.
      start_server "$url" keep
      printf '| %-10s | %-36s | search ready %.1f s after start |\n' "$database" "restart ($items items)" "$ready_after"
      kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
    fi
  done
done
