import { call } from "../../../lib/api";
import { queryClient } from "../../../lib/query";

export const setFavorite = (feedId: number, favorited: boolean) =>
  call<{ favorited: boolean }>("/favorite/set", { feed_id: feedId, favorited }).then((answer) => {
    // The Favorites page lists what is kept: it asks again when next shown.
    void queryClient.invalidateQueries({ queryKey: ["favorites"] });
    return answer;
  });
