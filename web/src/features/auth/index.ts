// What other features may use of the sign-in area.
export { runOAuth } from "./oauth";
export { useOffers } from "./api/get-captcha-use";
export { bindWallet, toastWalletError } from "./wallet";
