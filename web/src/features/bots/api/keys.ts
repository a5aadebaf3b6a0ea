/** The bots area's query keys. */
export const botKeys = {
  chats: (userId?: number) => (userId === undefined ? ["bot-chats"] : ["bot-chats", userId]),
  telegramStart: () => ["telegram-start"],
};
