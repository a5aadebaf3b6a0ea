export { FavoriteButton } from "./FavoriteButton";
export { LikeButton } from "./LikeButton";
export { BlockedPeople } from "./BlockedPeople";
export { ReportButton } from "./ReportButton";
