// What other features and the app may use of the feed area.
export { HomePage } from "./HomePage";
export { FeedList } from "./FeedList";
export { FeedTimeline } from "./FeedTimeline";
export { seedFirstFeed } from "./api/get-feed";
export { seedFirstPage } from "./api/get-feeds";
export { FeedCard } from "./FeedCard";
export { feedKeys } from "./api/keys";
