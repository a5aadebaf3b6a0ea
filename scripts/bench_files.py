#!/usr/bin/env python3
"""Inputs for the ingestion benchmarks: real PNG files of a given size, multipart bodies, tracking
batches, and a burst of concurrent uploads. Standard library only."""
import http.client
import json
import os
import struct
import sys
import threading
import time
import zlib

BOUNDARY = "blockbriefbench"


def png(size):
    """A valid grey PNG of about `size` bytes: random pixels stored without compression."""
    side = max(1, int((size * 0.98) ** 0.5))
    raw = b"".join(b"\0" + os.urandom(side) for _ in range(side))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 0)) + chunk(b"IEND", b""))


def multipart(data):
    head = (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"img_file\"; filename=\"b.png\"\r\n"
            "Content-Type: image/png\r\n\r\n").encode()
    return head + data + f"\r\n--{BOUNDARY}--\r\n".encode()


def track_batch(n):
    now = int(time.time() * 1000)
    entries = [{"type": "view" if i % 2 else "click", "event": f"feed.card.{i % 7}", "time": now - i,
                "prop": {"from": "home", "ic": "AB12CD34"}} for i in range(n)]
    return json.dumps({"track_logs": entries}).encode()


def burst(port, count, size, token):
    """`count` uploads of a `size`-byte PNG at once by the reader of `token`; prints how many got
    code 2000."""
    body = multipart(png(size))
    results = []
    def one(i):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        conn.request("POST", "/api/img/upload/feedback/v2", body, {
            "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
            "X-Forwarded-For": f"100.64.9.{i + 1}",
            "X-TOKEN": token,
        })
        results.append(json.loads(conn.getresponse().read()).get("code"))
    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(sum(1 for r in results if r == 2000))


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "upload-body":
        sys.stdout.buffer.write(multipart(png(int(sys.argv[2]))))
    elif what == "track-body":
        sys.stdout.buffer.write(track_batch(int(sys.argv[2])))
    elif what == "burst":
        burst(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
