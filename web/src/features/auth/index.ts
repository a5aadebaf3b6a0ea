// What other features may use of the sign-in area.
export { runOAuth } from "./oauth";
