import { call } from "../../../lib/api";
import type { LikeState } from "../../../lib/api-types";

export const setFeedLike = (id: number, liked: boolean) => call<LikeState>("/like/set", { kind: "feed", id, liked });
