// What other features and the app may use of the feed area.
export { HomePage } from "./HomePage";
export { FeedList } from "./FeedList";
export { seedFirstPage } from "./api/get-feeds";
