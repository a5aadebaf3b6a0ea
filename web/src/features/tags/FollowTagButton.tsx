import { FollowButton } from "../../components/FollowButton";
import { useFollowTag } from "./api/follow-tag";
import { useFollowedTags } from "./api/get-followed-tags";

export function FollowTagButton({ tagId }: { tagId: number }) {
  const followed = useFollowedTags();
  const toggle = useFollowTag();
  const following = followed.data?.list.some((tag) => tag.id === tagId) ?? false;
  return <FollowButton following={following} busy={toggle.isPending} onToggle={(follow) => toggle.mutate({ tagId, follow })} />;
}
