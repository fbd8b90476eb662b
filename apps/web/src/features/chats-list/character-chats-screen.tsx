import type { Conversation, ConversationList } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { MessageCircle, MessagesSquare, RotateCcw, SquarePen, Trash2 } from "lucide-react";
import { type ReactNode, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Avatar } from "../../ui/avatar.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { characterQuery } from "../characters/api.ts";
import {
  characterConversationsQuery,
  chatKeys,
  createConversation,
  deleteConversation,
} from "../chat/api.ts";
import { chatPath, lastActivity, preview, timeAgo } from "./format.ts";

/** The profile, for the character's name when there are no conversations to take it from. */
function useCharacterName(characterId: string, fromList: string | undefined) {
  const character = useQuery({
    ...characterQuery(characterId),
    enabled: fromList === undefined,
    retry: false,
  });
  return fromList ?? character.data?.name;
}

function DeleteConversation({
  conversation,
  onDeleted,
}: {
  conversation: Conversation;
  onDeleted: (id: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await deleteConversation(conversation.id);
      setOpen(false);
      onDeleted(conversation.id);
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button
        variant="ghost"
        size="sm"
        className="text-danger hover:bg-danger-soft"
        onClick={() => setOpen(true)}
      >
        <Trash2 aria-hidden />
        Delete Conversation
      </Button>
      <DialogContent
        title="Delete this conversation?"
        description={`Every message in it is removed for good. Your other chats with ${conversation.character.name} stay.`}
      >
        {error ? <Banner tone="danger">{error}</Banner> : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button variant="danger" loading={pending} onClick={() => void confirm()}>
            Delete Conversation
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function ConversationItem({
  conversation,
  onDeleted,
}: {
  conversation: Conversation;
  onDeleted: (id: string) => void;
}) {
  const when = lastActivity(conversation);
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="line-clamp-2 text-sm">{preview(conversation)}</p>
        <p className="text-xs text-muted">
          <time dateTime={when} title={new Date(when).toLocaleString()}>
            {timeAgo(when)}
          </time>
          {" · "}
          {conversation.message_count === 1 ? "1 message" : `${conversation.message_count} messages`}
        </p>
      </div>
      <div className="-ml-2 flex shrink-0 flex-wrap items-center gap-1 sm:ml-0">
        <Button asChild size="sm">
          <Link to={chatPath(conversation)}>
            <MessageCircle aria-hidden />
            Continue to Chat
          </Link>
        </Button>
        <DeleteConversation conversation={conversation} onDeleted={onDeleted} />
      </div>
    </li>
  );
}

/** /chats/{characterId}: 'Last Conversations with {name}', each one to continue or delete. */
export function CharacterChatsScreen({ characterId }: { characterId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const list = useQuery(characterConversationsQuery(characterId));
  const conversations = list.data?.conversations ?? [];
  const first = conversations[0]?.character;
  const name = useCharacterName(characterId, first?.name);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);

  const onDeleted = (id: string) => {
    queryClient.setQueryData<ConversationList>(characterConversationsQuery(characterId).queryKey, (data) =>
      data ? { ...data, conversations: data.conversations.filter((c) => c.id !== id) } : data,
    );
    queryClient.removeQueries({ queryKey: chatKeys.detail(id) });
    void queryClient.invalidateQueries({ queryKey: chatKeys.list });
  };

  const startNew = async () => {
    setStarting(true);
    setStartError(null);
    try {
      const created = await createConversation(queryClient, characterId);
      await navigate({ to: chatPath(created.conversation) });
    } catch (error) {
      setStartError(errorMessage(error));
      setStarting(false);
    }
  };

  let body: ReactNode;
  if (list.isPending) {
    body = <PageSpinner label="Loading conversations" />;
  } else if (list.isError) {
    body = (
      <Banner
        tone="danger"
        title="These conversations couldn't be loaded"
        action={
          <Button size="sm" variant="outline" onClick={() => void list.refetch()}>
            <RotateCcw aria-hidden />
            Try again
          </Button>
        }
      >
        {errorMessage(list.error)}
      </Banner>
    );
  } else if (conversations.length === 0) {
    body = (
      <EmptyState icon={MessagesSquare} title="No saved conversations">
        When you chat with {name ?? "this character"}, your conversations are kept here.
      </EmptyState>
    );
  } else {
    body = (
      <ul className="flex flex-col gap-2" aria-label="Conversations">
        {conversations.map((conversation) => (
          <ConversationItem key={conversation.id} conversation={conversation} onDeleted={onDeleted} />
        ))}
      </ul>
    );
  }

  return (
    <Page width="medium">
      <PageHeader
        title={
          <span className="flex items-center gap-3">
            {name ? <Avatar name={name} src={first?.avatar_url ?? null} size="md" /> : null}
            <span className="min-w-0">Last Conversations with {name ?? "…"}</span>
          </span>
        }
        actions={
          <Button variant="outline" loading={starting} onClick={() => void startNew()}>
            {starting ? null : <SquarePen aria-hidden />}
            Start New Chat
          </Button>
        }
      />
      {startError ? (
        <Banner tone="danger" className="mb-4">
          {startError}
        </Banner>
      ) : null}
      {body}
    </Page>
  );
}
