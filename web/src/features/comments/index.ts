export { CommentThread } from "./CommentThread";
export { CommentText } from "./CommentText";
