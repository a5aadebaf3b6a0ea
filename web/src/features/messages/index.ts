export { MessagesPage } from "./MessagesPage";
export { UnreadBadge } from "./UnreadBadge";
