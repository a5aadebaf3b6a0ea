import { call } from "../../../lib/api";
import type { LikeState } from "../../../lib/api-types";

export type LikeKind = "feed" | "comment" | "question" | "answer";

export const setLike = (kind: LikeKind, id: number, liked: boolean) => call<LikeState>("/like/set", { kind, id, liked });
