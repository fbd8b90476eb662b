import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../ui/button.tsx";
import { characterQuery } from "../characters/api.ts";
import { UnblockCreatorDialog } from "./block-dialogs.tsx";

/**
 * The Unblock Creator button of the blockedBotCreator state (chat-and-characters §8). The chat
 * is refused, but the bot's profile still opens: it names the creator to unblock.
 */
export function UnblockFromChat({
  characterId,
  onUnblocked,
}: {
  characterId: string;
  onUnblocked: () => void;
}) {
  const character = useQuery(characterQuery(characterId));
  const [open, setOpen] = useState(false);
  const data = character.data;
  const creator = data ? { id: data.creator_user_id, username: data.creator_username } : null;
  return (
    <>
      <Button disabled={!creator} loading={character.isPending} onClick={() => setOpen(true)}>
        Unblock Creator
      </Button>
      <UnblockCreatorDialog creator={creator} open={open} onOpenChange={setOpen} onDone={onUnblocked} />
    </>
  );
}
