/** The account area's query keys: every use and invalidation goes through these. */
export const accountKeys = {
  accounts: (userId?: number) => (userId === undefined ? ["accounts"] : ["accounts", userId]),
  balance: (userId?: number) => (userId === undefined ? ["balance"] : ["balance", userId]),
  ledger: (userId?: number) => (userId === undefined ? ["ledger"] : ["ledger", userId]),
  tasks: (...scope: (string | boolean)[]) => ["tasks", ...scope],
};
