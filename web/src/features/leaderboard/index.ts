export { LeaderboardPage } from "./LeaderboardPage";
