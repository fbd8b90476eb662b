import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { PageSpinner } from "../../ui/spinner.tsx";
import { characterConversationsQuery, createConversation } from "./api.ts";
import { ChatFrame, ChatLoadError } from "./chat-frame.tsx";

/**
 * /chat/{characterId}: continues the most recent conversation with the character, or starts
 * one (with its greeting) when there is none, then shows it at its own address.
 */
export function OpenLatestChat({ characterId }: { characterId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const target = useQuery({
    queryKey: ["conversations", "open", characterId],
    queryFn: async () => {
      const list = await queryClient.fetchQuery({
        ...characterConversationsQuery(characterId),
        staleTime: 0,
      });
      const latest = list.conversations[0];
      if (latest) return latest.id;
      return (await createConversation(queryClient, characterId)).conversation.id;
    },
    // Resolved once per visit: a refetch could create a second conversation.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 10_000,
    retry: false,
    refetchOnWindowFocus: false,
  });

  useEffect(() => {
    if (!target.data) return;
    void navigate({
      to: `/chat/${encodeURIComponent(characterId)}/${encodeURIComponent(target.data)}`,
      replace: true,
    });
  }, [target.data, characterId, navigate]);

  return (
    <ChatFrame>
      {target.error ? (
        <ChatLoadError error={target.error} onRetry={() => void target.refetch()} />
      ) : (
        <PageSpinner label="Opening chat" />
      )}
    </ChatFrame>
  );
}
