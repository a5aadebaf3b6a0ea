// What other features may use of the account area.
export { accountKeys } from "./api/keys";
export { useBalance } from "./api/get-balance";
