#!/usr/bin/env bash
# `make bench-talk` (in `make bench`), on SQLite and on PostgreSQL (TEST_POSTGRES_URL, set by
# with-postgres.sh): one feed item with 10,000 comments (2,000 threads of one comment and four
# replies) and 50,000 likes on them, by 2,000 readers, written straight into the database; the
# bench reader has 5,000 messages, 500 of them unread. With wrk on loopback:
#   - /comment/list first page, newest and best first, for a visitor and for a signed-in reader
#     (the shared page is cached for a second; the reader's likes are read for it), and the
#     second page, which is always read from the database;
#   - /message/unread for the reader with 5,000 messages;
#   - /question/detail of a question with 200 answers, and the home page's Community tab over
#     20,000 readers' posts (the community issue);
#   - /like/set: likes and unlikes of the item's comments by the 2,000 readers in turn.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-lib.sh

readers=2000

seed_sql() { # $1 = feed id, $2 = the bench reader's id, $3 = now; writes the readers' tokens to $work/tokens
  python3 - "$1" "$2" "$3" "$readers" "$work/tokens" <<'PY'
import hashlib, sys
feed, me, now, readers, tokens_file = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
first_user = 1_000_001
def rows(table, cols, values):
    for i in range(0, len(values), 500):
        chunk = ",".join("(" + ",".join(str(v) for v in row) + ")" for row in values[i:i + 500])
        print(f"INSERT INTO {table} ({cols}) VALUES {chunk};")
print("BEGIN;")
users = [(first_user + n, f"'b{n}'", f"'bench_{n}'", f"'reader_{n}'", "''", f"'i{n}'", "'en'", now - 7 * 86400, 0, "TRUE") for n in range(readers)]
rows("users", "id, exposed_uid, username, nickname, avatar, invitation_code, locale, created_at, points, auto_translate", users)
with open(tokens_file, "w") as out:
    sessions = []
    for n in range(readers):
        token = f"bench-reader-token-{n}"
        out.write(token + "\n")
        sessions.append((f"'{hashlib.sha256(token.encode()).hexdigest()}'", first_user + n, now, now + 30 * 86400))
    rows("sessions", "token_hash, user_id, created_at, expires_at", sessions)
# 2,000 threads: a comment and four replies each; comment k is by reader k % readers.
comments, cid = [], 0
likes_per = {}
for thread in range(2000):
    cid += 1
    top = cid
    comments.append([top, feed, "NULL", first_user + top % readers, f"'Comment {top} on the news'", top])
    for r in range(4):
        cid += 1
        comments.append([cid, feed, top, first_user + cid % readers, f"'Reply {cid}'", cid])
# 50,000 likes: each reader likes 25 comments (spread over the thread).
likes = []
for n in range(readers):
    for k in range(25):
        target = (n * 97 + k * 401) % cid + 1
        likes.append((first_user + n, "'comment'", target, now))
likes = list({(u, k, t): (u, k, t, c) for (u, k, t, c) in likes}.values())
for (_, _, t, _) in likes:
    likes_per[t] = likes_per.get(t, 0) + 1
replies_of = {}
for c in comments:
    if c[2] != "NULL":
        replies_of[c[2]] = replies_of.get(c[2], 0) + 1
values = [(c[0], c[1], c[2], c[3], c[4], "'visible'", likes_per.get(c[0], 0), replies_of.get(c[0], 0), now - 100000 + c[5]) for c in comments]
rows("comments", "id, subject_id, parent_id, user_id, content, state, like_count, reply_count, created_at", values)
rows("likes", "user_id, kind, target_id, created_at", likes)
print(f"UPDATE feed_items SET comments = {len(comments)} WHERE id = {feed};")
# A question by the bench reader with 200 answers (by 200 of the readers), liked unevenly.
print(f"INSERT INTO questions (id, user_id, title, content, bounty, bounty_state, answer_count, like_count, created_at, deadline_at) VALUES (1, {me}, 'Will the unlock move the price?', 'Asking for a friend', 100, 'open', 200, 0, {now}, {now + 7 * 86400});")
answers = [(1, first_user + n, f"'Answer {n}'", (n * 37) % 50, now - 1000 + n) for n in range(200)]
rows("answers", "question_id, user_id, content, like_count, created_at", answers)
# 20,000 readers' posts (the Community tab), ten by each reader, one a minute before now.
posts = [(f"'post:bench:{n}'", "'post'", "'en'", f"'Post {n} on the unlock'", f"'What reader {n % readers} thinks of the unlock'",
          f"'<p>What reader {n % readers} thinks of the unlock</p>'", "''", first_user + n % readers, "'[]'", "FALSE",
          now - 60 * (n + 1), 0, 0, 0, now) for n in range(20000)]
rows("feed_items", "source_url, kind, lang, title, summary, content, source_name, user_id, images, important, published_at, views, likes, comments, updated_at", posts)
# The bench reader's messages: 5,000, the newest 500 unread.
messages = [(me, "'reply'", first_user + n % readers, feed, n % cid + 1, 1, "'A reply'", "FALSE" if n >= 4500 else "TRUE", now - 5000 + n, now - 5000 + n) for n in range(5000)]
rows("messages", "user_id, kind, actor_id, feed_id, comment_id, count, body, read, created_at, updated_at", messages)
print("COMMIT;")
print("ANALYZE;")
print(f"-- {len(comments)} comments, {len(likes)} likes")
PY
}

# Each request with the next reader's token, liking or unliking the next comment.
like_lua() {
  cat <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local tokens = {}
for line in io.lines("$work/tokens") do tokens[#tokens + 1] = line end
local n = 0
request = function()
  n = n + 1
  wrk.headers["X-TOKEN"] = tokens[n % #tokens + 1]
  wrk.headers["X-Forwarded-For"] = "100.64." .. math.floor(n / 250) % 250 .. "." .. n % 250
  local body = '{"kind":"comment","id":' .. (n % 10000 + 1) .. ',"liked":' .. (math.floor(n / #tokens) % 2 == 0 and "true" or "false") .. '}'
  return wrk.format(nil, nil, nil, body)
end
LUA
}

echo "wrk: 1 thread, $connections connections, ${seconds}s per run; $(nproc) cores shared by wrk and the server"
echo
echo "| database   | call                                 |    req/s |   items/s |      p50 |      p99 | server CPU |"
echo "|------------|--------------------------------------|----------|-----------|----------|----------|-----|"
for database in ${BENCH_DATABASES:-sqlite postgres}; do
  url=$(database_url "$database" bench_talk)
  start_server "$url"
  token=$(sign_in)
  me=$(post -H "X-TOKEN: $token" "$base/api/user/info" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])')
  feed=$(post "$base/api/feed/list" -d '{"limit":1}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["list"][0]["id"])')
  if [ "$database" = sqlite ]; then
    seed_sql "$feed" "$me" "$(date +%s)" | sqlite3 "$work/data/blockbrief.db" >&2
  else
    { seed_sql "$feed" "$me" "$(date +%s)"
      for table in users sessions comments likes messages questions answers feed_items; do
        echo "SELECT setval(pg_get_serial_sequence('$table', 'id'), (SELECT max(id) FROM $table));"
      done; } | psql -q "$url" >/dev/null
  fi
  echo "{\"feed_id\":$feed,\"sort\":\"new\"}" > "$work/new.json"
  echo "{\"feed_id\":$feed,\"sort\":\"top\"}" > "$work/top.json"
  echo '{}' > "$work/empty.json"
  lua "$work/new.json" application/json "" > "$work/new.lua"
  lua "$work/top.json" application/json "" > "$work/top.lua"
  lua "$work/new.json" application/json "$token" > "$work/new-signed.lua"
  lua "$work/empty.json" application/json "$token" > "$work/unread.lua"
  like_lua > "$work/like.lua"
  run_wrk "$database" /comment/list "$work/new.lua" 20 "first page, newest, visitor"
  run_wrk "$database" /comment/list "$work/top.lua" 20 "first page, best, visitor"
  run_wrk "$database" /comment/list "$work/new-signed.lua" 20 "first page, newest, signed in"
  # A deeper page is never cached: the thread's own query cost under load.
  cursor=$(post "$base/api/comment/list" -d "{\"feed_id\":$feed}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["next_cursor"])')
  echo "{\"feed_id\":$feed,\"sort\":\"new\",\"cursor\":\"$cursor\"}" > "$work/second.json"
  lua "$work/second.json" application/json "" > "$work/second.lua"
  run_wrk "$database" /comment/list "$work/second.lua" 20 "second page (not cached), visitor"
  run_wrk "$database" /message/unread "$work/unread.lua" 1 "5,000 messages, 500 unread"
  # The home page's Community tab: 20,000 posts; the first page (shared, cached for a second;
  # a signed-in reader's likes and favorites marked on it) and a deeper page (never cached).
  echo '{"tab":"community"}' > "$work/community.json"
  lua "$work/community.json" application/json "" > "$work/community.lua"
  lua "$work/community.json" application/json "$token" > "$work/community-signed.lua"
  run_wrk "$database" /feed/list "$work/community.lua" 20 "Community tab, first page, visitor"
  run_wrk "$database" /feed/list "$work/community-signed.lua" 20 "Community tab, first page, signed in"
  cursor=$(post "$base/api/feed/list" -d '{"tab":"community"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["next_cursor"])')
  echo "{\"tab\":\"community\",\"cursor\":\"$cursor\"}" > "$work/community-second.json"
  lua "$work/community-second.json" application/json "" > "$work/community-second.lua"
  run_wrk "$database" /feed/list "$work/community-second.lua" 20 "Community tab, second page (not cached)"
  echo '{"id":1}' > "$work/question.json"
  lua "$work/question.json" application/json "" > "$work/question.lua"
  run_wrk "$database" /question/detail "$work/question.lua" 200 "a question with 200 answers"
  run_wrk "$database" /like/set "$work/like.lua" 1 "2,000 readers in turn"
  kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
  server_pid=
done
