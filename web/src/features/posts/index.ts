// What other features and the app may use of readers' posts.
export { WritePage } from "./WritePage";
export { PostTools } from "./PostTools";
