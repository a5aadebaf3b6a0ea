// Sign-In with Ethereum from Node, signed by viem the way a browser wallet signs (personal_sign),
// against the real server binary on a fresh SQLite database. `make test` builds the binary in its
// Rust step, which runs first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateKeyToAccount } from "viem/accounts";

const binary = new URL("../target/debug/blockbrief", import.meta.url).pathname;

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

test("a viem account signs in with the server's EIP-4361 message", async () => {
  assert.ok(existsSync(binary), `the server binary is built (${binary}); run make test`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "bb-viem-"));
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(binary, [], {
    env: { ...process.env, BIND_ADDR: `127.0.0.1:${port}`, DATA_DIR: dataDir, PUBLIC_URL: base, RUST_LOG: "warn" },
    stdio: "ignore",
  });
  const post = async (path, body) => {
    const res = await fetch(`${base}/api${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return res.json();
  };
  try {
    for (let i = 0; i < 100; i++) {
      if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const account = privateKeyToAccount(`0x${"42".repeat(32)}`);
    const { data: issued } = await post("/user/sig/msg", { address: account.address });
    assert.match(issued.msg, new RegExp(`^127\\.0\\.0\\.1:${port} wants you to sign in with your Ethereum account:\\n${account.address}\\n`));
    const sig = await account.signMessage({ message: issued.msg });
    const session = await post("/user/login/wallet", { address: account.address, sig, msg: issued.msg });
    assert.equal(session.code, 2000, JSON.stringify(session));
    assert.equal(session.data.type, 1);
    // The same signature again is a replay.
    const replay = await post("/user/login/wallet", { address: account.address, sig, msg: issued.msg });
    assert.equal(replay.code, 4403);
    // Another account's signature over the same message does not match the address.
    const { data: next } = await post("/user/sig/msg", { address: account.address });
    const other = privateKeyToAccount(`0x${"43".repeat(32)}`);
    const forged = await post("/user/login/wallet", {
      address: account.address,
      sig: await other.signMessage({ message: next.msg }),
      msg: next.msg,
    });
    assert.equal(forged.code, 4402);
  } finally {
    server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
