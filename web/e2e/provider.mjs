// A local OAuth 2 / OpenID Connect provider that speaks the real protocol: an authorize page with
// an "Allow" button (redirecting with code and state), a token endpoint checking the client, the
// redirect URI and PKCE S256 and returning an RS256 id token with the nonce, a JWKS, and X's
// users/me. And Sign in with Apple's web flow: Apple's JS API (`AppleID.auth.init/signIn` in popup
// mode) served as a script, whose popup authorizes with `response_mode=web_message` and posts the
// signed identity token back to the page's origin as Apple's does. Browser tests point the
// server's provider URLs here.
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { createServer } from "node:http";

export const CLIENT_ID = "blockbrief-web";
export const CLIENT_SECRET = "blockbrief-web-secret";
export const APPLE_CLIENT_ID = "news.blockbrief.web";

/** Apple's JS API as pages use it (`appleid.auth.js`), against `base`'s authorize page. */
const appleScript = (base) => `(() => {
  let config = null;
  const origin = ${JSON.stringify(base)};
  window.AppleID = { auth: {
    init(c) { config = c; },
    signIn() {
      return new Promise((resolve, reject) => {
        const q = new URLSearchParams({ client_id: config.clientId, redirect_uri: config.redirectURI,
          response_type: "code id_token", response_mode: "web_message", scope: config.scope,
          state: config.state, nonce: config.nonce });
        const popup = window.open(origin + "/apple/authorize?" + q, "AppleAuthentication", "width=700,height=700");
        if (!popup) return reject({ error: "popup_blocked_by_browser" });
        const done = () => { clearInterval(poll); removeEventListener("message", onMessage); };
        const onMessage = (e) => {
          if (e.origin !== origin || e.source !== popup) return;
          let m;
          try { m = JSON.parse(e.data); } catch { return; }
          if (m.method !== "oauthDone") return;
          done();
          m.data.error ? reject(m.data) : resolve(m.data);
        };
        const poll = setInterval(() => { if (popup.closed) { done(); reject({ error: "popup_closed_by_user" }); } }, 300);
        addEventListener("message", onMessage);
      });
    },
  } };
})();`;
const KID = "e2e-key";

const b64url = (data) => Buffer.from(data).toString("base64url");

export async function startProvider() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: "jwk" }), kid: KID, use: "sig", alg: "RS256" };
  const grants = new Map();
  let base = "";
  const idToken = (claims) => {
    const input = `${b64url(JSON.stringify({ alg: "RS256", kid: KID, typ: "JWT" }))}.${b64url(JSON.stringify(claims))}`;
    return `${input}.${sign("RSA-SHA256", Buffer.from(input), privateKey).toString("base64url")}`;
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, base);
    const json = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/authorize") {
      const q = url.searchParams;
      if (q.get("client_id") !== CLIENT_ID || q.get("code_challenge_method") !== "S256" || q.get("response_type") !== "code") {
        res.writeHead(400).end("bad authorization request");
        return;
      }
      const code = `code-${grants.size + 1}`;
      grants.set(code, { challenge: q.get("code_challenge"), nonce: q.get("nonce"), redirect: q.get("redirect_uri") });
      const target = new URL(q.get("redirect_uri"));
      target.searchParams.set("code", code);
      target.searchParams.set("state", q.get("state"));
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><title>Local provider</title><h1>Sign in to Blockbrief?</h1><a id="allow" href="${target}">Allow</a>`);
      return;
    }
    if (url.pathname === "/token" && req.method === "POST") {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const f = new URLSearchParams(raw);
      const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`;
      const clientOk = (req.headers.authorization === basic || f.get("client_secret") === CLIENT_SECRET) && f.get("client_id") === CLIENT_ID;
      if (!clientOk) return json(401, { error: "invalid_client" });
      const grant = grants.get(f.get("code"));
      grants.delete(f.get("code"));
      const challenge = createHash("sha256").update(f.get("code_verifier") ?? "").digest("base64url");
      if (!grant || challenge !== grant.challenge || f.get("redirect_uri") !== grant.redirect || f.get("grant_type") !== "authorization_code") {
        return json(400, { error: "invalid_grant" });
      }
      const answer = { access_token: "at-e2e", token_type: "Bearer", expires_in: 3600 };
      if (grant.nonce) {
        const now = Math.floor(Date.now() / 1000);
        answer.id_token = idToken({ iss: base, aud: CLIENT_ID, sub: "e2e-google-user", iat: now, exp: now + 600, nonce: grant.nonce, email: "popup@gmail.example", name: "Popup Reader" });
      }
      return json(200, answer);
    }
    if (url.pathname === "/appleid.auth.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(appleScript(base));
      return;
    }
    if (url.pathname === "/apple/authorize") {
      const q = url.searchParams;
      const wellFormed = q.get("client_id") === APPLE_CLIENT_ID && q.get("response_mode") === "web_message"
        && q.get("response_type") === "code id_token" && q.get("nonce") && q.get("state") && q.get("redirect_uri");
      if (!wellFormed) {
        res.writeHead(400).end("bad authorization request");
        return;
      }
      const now = Math.floor(Date.now() / 1000);
      const email = "e2e-apple@privaterelay.appleid.com";
      const id_token = idToken({ iss: base, aud: APPLE_CLIENT_ID, sub: "e2e-apple-user", iat: now, exp: now + 600, nonce: q.get("nonce"), email });
      const data = { authorization: { code: "apple-code", id_token, state: q.get("state") }, user: { email, name: { firstName: "Apple", lastName: "Reader" } } };
      const message = JSON.stringify(JSON.stringify({ method: "oauthDone", data }));
      const target = JSON.stringify(new URL(q.get("redirect_uri")).origin);
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><title>Sign in with Apple</title><h1>Use your Apple ID with Blockbrief?</h1>
<button id="continue">Continue</button>
<script>
// Closing inside the click handler can close the page before the test driver has its click acknowledged;
// a moment later is what a person sees too.
document.getElementById("continue").onclick = () => { window.opener.postMessage(${message}, ${target}); setTimeout(() => window.close(), 300); };
</script>`);
      return;
    }
    if (url.pathname === "/jwks") return json(200, { keys: [jwk] });
    if (url.pathname === "/users/me") {
      if (req.headers.authorization !== "Bearer at-e2e") return json(401, { error: "unauthorized" });
      return json(200, { data: { id: "4400112233", name: "Popup Reader", username: "popup_reader" } });
    }
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    /** The server's settings for Google (OIDC) and X (OAuth 2 + users/me) at this provider. */
    env: {
      GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: CLIENT_SECRET, GOOGLE_AUTH_URL: `${base}/authorize`,
      GOOGLE_TOKEN_URL: `${base}/token`, GOOGLE_JWKS_URL: `${base}/jwks`, GOOGLE_ISSUER: base,
      TWITTER_CLIENT_ID: CLIENT_ID, TWITTER_CLIENT_SECRET: CLIENT_SECRET, TWITTER_AUTH_URL: `${base}/authorize`,
      TWITTER_TOKEN_URL: `${base}/token`, TWITTER_USERINFO_URL: `${base}/users/me`,
      APPLE_CLIENT_ID, APPLE_ISSUER: base, APPLE_JWKS_URL: `${base}/jwks`, APPLE_JS_URL: `${base}/appleid.auth.js`,
    },
    stop: () => server.close(),
  };
}
