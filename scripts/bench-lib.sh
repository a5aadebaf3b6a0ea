# Shared by the benchmark scripts (sourced): a release server on a free loopback port over a
# fresh database, a signed-in token, and wrk runs printed as Markdown table rows.
# start_server takes a database URL (empty: the embedded SQLite) and optional VAR=value settings.
bin=target/release/blockbrief
seconds=${BENCH_SECONDS:-10}
connections=${BENCH_CONNECTIONS:-32}
work=$(mktemp -d /tmp/blockbrief-bench.XXXXXX)
server_pid=
# (Under set -e: a server already stopped must not fail the run.)
cleanup() { [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
post() { curl -sf -X POST -H 'content-type: application/json' "$@"; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

start_server() { # $1 = database URL or empty for the embedded SQLite; $2 = keep the data dir
  # BENCH_DATA: another data dir, for a second server beside the first.
  local port data=${BENCH_DATA:-$work/data}; port=$(free_port)
  base="http://127.0.0.1:$port"
  [ -n "${2:-}" ] || rm -rf "$data"
  # TRUST_PROXY: the upload runs give each request its own client address (per-IP limits).
  DATA_DIR="$data" BIND_ADDR="127.0.0.1:$port" DATABASE_URL="$1" RUST_LOG="warn,otp=info" \
    TRUST_PROXY=127.0.0.1 "$bin" >> "$work/server.log" 2>&1 &
  server_pid=$!
  # A PostgreSQL server serves at once but searches once its search copy is open (reused and
  # caught up in seconds; built afresh, about two minutes at 100,000 feeds).
  local started; started=$(date +%s.%N)
  for _ in $(seq 6000); do
    if curl -sf "$base/api/health" | grep -q '"search":"ready"'; then
      ready_after=$(awk -v now="$(date +%s.%N)" -v then="$started" 'BEGIN { print now - then }')
      return
    fi
    sleep 0.1
  done
  echo "server did not start" >&2; cat "$work/server.log" >&2; exit 1
}

database_url() { # $1 = sqlite or postgres, $2 = a database name; prints the URL of a fresh one
  # (empty: the embedded SQLite)
  [ "$1" = postgres ] || return 0
  psql -q "$TEST_POSTGRES_URL" -c "DROP DATABASE IF EXISTS $2" -c "CREATE DATABASE $2" >/dev/null
  echo "${TEST_POSTGRES_URL%/*}/$2"
}

sign_in() { # prints a user token, signing in the way a person does (the code is in the log)
  post "$base/api/otp/email" -d '{"email":"bench@example.org","purpose":"login"}' >/dev/null
  local code; code=$(grep -o 'bench@example.org: [0-9]*' "$work/server.log" | tail -n 1 | cut -d' ' -f2)
  post "$base/api/user/login/email" -d "{\"email\":\"bench@example.org\",\"otp\":\"$code\"}" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["token"])'
}

lua() { # $1 = body file, $2 = content type, $3 = X-TOKEN or empty; prints a wrk script
  local auth=""
  [ -z "$3" ] || auth="wrk.headers[\"X-TOKEN\"] = \"$3\""
  cat <<LUA
wrk.method = "POST"
local f = io.open("$1", "rb"); wrk.body = f:read("*all"); f:close()
wrk.headers["Content-Type"] = "$2"
$auth
local n = 0
request = function()
  n = n + 1
  wrk.headers["X-Forwarded-For"] = "100.64." .. math.floor(n / 250) % 250 .. "." .. n % 250
  return wrk.format()
end
LUA
}

lua_rotating() { # $1 = file of JSON bodies, one per line; prints a wrk script sending them in turn
  # Each request from its own client address, as readers come (search is limited per client).
  cat <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local bodies = {}
for line in io.lines("$1") do bodies[#bodies + 1] = line end
local n = 0
request = function()
  n = n + 1
  wrk.headers["X-Forwarded-For"] = "100.64." .. math.floor(n / 250) % 250 .. "." .. n % 250
  return wrk.format(nil, nil, nil, bodies[n % #bodies + 1])
end
LUA
}

run_wrk() { # $1 = database, $2 = path, $3 = wrk script, $4 = items per request, $5 = what is sent
  local before after out
  before=$(ticks "$server_pid")
  out=$(wrk -t1 -c"$connections" -d"${seconds}s" --latency -s "$3" "$base/api$2")
  after=$(ticks "$server_pid")
  if grep -q "Non-2xx" <<<"$out"; then echo "$out" >&2; echo "errors during $1 $2" >&2; exit 1; fi
  local rps items p50 p99 cpu
  rps=$(awk '/^Requests\/sec/ {printf "%.0f", $2}' <<<"$out")
  items=$(( rps * ${4:-1} ))
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  cpu=$(( (after - before) * 100 / $(getconf CLK_TCK) / seconds ))
  printf '| %-10s | %-36s | %8s | %9s | %8s | %8s | %4s%% |\n' "$1" "$2${5:+ ($5)}" "$rps" "$items" "$p50" "$p99" "$cpu"
}

