export { ExplorePage } from "./ExplorePage";
