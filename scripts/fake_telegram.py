"""A local Telegram Bot API for `make bench-bots`: answers `/bot{token}/{method}` as Telegram
does and enforces its published limits with 429 + retry_after (about 30 messages a second in all,
one a second to a chat with a short burst, 20 a minute to a group). GET /stats gives what was
accepted (times), the last messages (chat and text) and how many 429s were answered."""

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Bucket:
    def __init__(self, rate, burst):
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, time.monotonic()

    def take(self):
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


lock = threading.Lock()
everything = Bucket(30, 30)
chats = {}
accepted = []
last = []
too_many = 0


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        with lock:
            self.answer(200, {"accepted": accepted, "last": last[-20:], "too_many": too_many})

    def do_POST(self):
        global too_many
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        method = self.path.rsplit("/", 1)[-1]
        if method == "getMe":
            return self.answer(200, {"ok": True, "result": {"id": 1, "is_bot": True, "first_name": "B", "username": "BenchBot"}})
        if method != "sendMessage":
            return self.answer(200, {"ok": True, "result": True})
        chat = str(body.get("chat_id"))
        with lock:
            group = chat.startswith("-")
            bucket = chats.setdefault(chat, Bucket(20 / 60, 20) if group else Bucket(1, 5))
            if not (everything.take() and bucket.take()):
                too_many += 1
                return self.answer(429, {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 1", "parameters": {"retry_after": 1}})
            accepted.append(time.time())
            last.append({"chat_id": chat, "text": body.get("text"), "parse_mode": body.get("parse_mode")})
        self.answer(200, {"ok": True, "result": {"message_id": len(accepted), "date": 0, "chat": {"id": chat, "type": "private"}}})


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
server.serve_forever()
