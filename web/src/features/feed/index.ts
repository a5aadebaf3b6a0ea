// What other features and the app may use of the feed area.
export { HomePage } from "./HomePage";
export { FeedList } from "./FeedList";
export { FeedTimeline } from "./FeedTimeline";
export { seedFirstPage } from "./api/get-feeds";
