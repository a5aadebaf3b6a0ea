// A local Telegram Bot API for browser tests: `/bot{token}/{method}` with Telegram's `{ok, result}`
// answers for what the server calls at start-up and when it answers a chat (getMe, setWebhook,
// setMyCommands, sendMessage), keeping the messages the bot sent.
import { createServer } from "node:http";

export const BOT_TOKEN = "4242:e2e-bot-token";
export const BOT_USERNAME = "BlockbriefE2EBot";
export const WEBHOOK_SECRET = "e2e-telegram-secret";

export async function startTelegram() {
  const sent = [];
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const answer = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? "");
    if (!match || match[1] !== BOT_TOKEN) return answer(401, { ok: false, error_code: 401, description: "Unauthorized" });
    let body;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return answer(400, { ok: false, error_code: 400, description: "Bad Request: invalid JSON" });
    }
    switch (match[2]) {
      case "getMe":
        return answer(200, { ok: true, result: { id: 4242, is_bot: true, first_name: "Blockbrief", username: BOT_USERNAME } });
      case "sendMessage":
        sent.push({ chat_id: String(body.chat_id), text: body.text });
        return answer(200, { ok: true, result: { message_id: sent.length, date: 0, chat: { id: body.chat_id, type: "private" }, text: body.text } });
      case "getUpdates":
        return answer(200, { ok: true, result: [] });
      default:
        return answer(200, { ok: true, result: true });
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    sent,
    env: { TELEGRAM_BOT_TOKEN: BOT_TOKEN, TELEGRAM_API_URL: url, TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET },
    stop: () => server.close(),
  };
}
