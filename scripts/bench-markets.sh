#!/usr/bin/env bash
# `make bench-markets` (in `make bench`), issue 35's figures:
#   - one price poll updating 1,000 tokens, on SQLite and PostgreSQL (server/examples/price_bench.rs);
#   - the visitor's home feed with prices on its token chips, then the same with the prices
#     removed, in one run on SQLite with the demo content (release build, wrk on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-lib.sh

echo "## One poll updating 1,000 tokens"
DATABASE_URL=$TEST_POSTGRES_URL target/release/examples/price_bench
echo
# One poll at start (the demo prices), then none during the runs.
export DEMO_CONTENT=true PRICE_INTERVAL_SECONDS=86400
start_server ""
for _ in $(seq 100); do
  post "$base/api/market/overview" -d '{}' | grep -q '"as_of":[0-9]' && break
  sleep 0.2
done
echo '{}' > "$work/empty.json"
lua "$work/empty.json" application/json "" > "$work/visitor.lua"
echo "## The home feed with and without prices on its token chips"
echo "wrk: 1 thread, $connections connections, ${seconds}s per run; $(nproc) cores shared by wrk and the server"
echo
echo "| database   | call                                 |    req/s |   items/s |      p50 |      p99 | server CPU |"
echo "|------------|--------------------------------------|----------|-----------|----------|----------|-----|"
run_wrk sqlite /feed/list "$work/visitor.lua" 20 "visitor, with prices"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('DELETE FROM token_prices'); c.commit()" "$work/data/blockbrief.db"
sleep 2
post "$base/api/feed/list" -d '{}' | grep -q '"price":{' && { echo "prices still on the chips" >&2; exit 1; }
run_wrk sqlite /feed/list "$work/visitor.lua" 20 "visitor, without prices"
