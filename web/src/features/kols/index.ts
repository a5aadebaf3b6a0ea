export { KolPage } from "./KolPage";
