export { TokenPage } from "./TokenPage";
