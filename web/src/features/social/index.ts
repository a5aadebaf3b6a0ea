export { FavoriteButton } from "./FavoriteButton";
export { LikeButton } from "./LikeButton";
