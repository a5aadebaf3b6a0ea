export { CommentThread } from "./CommentThread";
export { CommentText } from "./CommentText";
export { threadChanged } from "./api/comments";
