export { CommentThread } from "./CommentThread";
export { CommentText } from "./CommentText";
export { isShown, threadChanged } from "./api/comments";
