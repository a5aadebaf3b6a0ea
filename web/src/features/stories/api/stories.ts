import { useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { StoryDetail } from "../../../lib/api-types";

/** A story's reports, once it is opened (`id` null until then). */
export const useStory = (id: number | null) =>
  useQuery({
    queryKey: ["story", id],
    queryFn: () => call<StoryDetail>("/story/detail", { id }),
    enabled: id !== null,
    staleTime: 60_000,
  });
