export { TelegramConnect } from "./TelegramConnect";
export { useTelegramStart, loginWithTelegram } from "./api/telegram";
export { miniAppInitData, signInWithTelegramWidget } from "./telegramLogin";
