export { CommentThread } from "./CommentThread";
