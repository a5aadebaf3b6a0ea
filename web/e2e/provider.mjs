// A local OAuth 2 / OpenID Connect provider that speaks the real protocol: an authorize page with
// an "Allow" button (redirecting with code and state), a token endpoint checking the client, the
// redirect URI and PKCE S256 and returning an RS256 id token with the nonce, a JWKS, and X's
// users/me. Browser tests point the server's provider URLs here.
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { createServer } from "node:http";

export const CLIENT_ID = "blockbrief-web";
export const CLIENT_SECRET = "blockbrief-web-secret";
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
    },
    stop: () => server.close(),
  };
}
