export { StorySources } from "./StorySources";
