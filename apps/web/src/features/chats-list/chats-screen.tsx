import type { Conversation } from "@hearth/contract";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { MessagesSquare, RotateCcw } from "lucide-react";
import type { ReactNode } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useMe } from "../../lib/session.ts";
import { Avatar } from "../../ui/avatar.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { conversationListQuery } from "../chat/api.ts";
import { chatPath, lastActivity, preview, timeAgo } from "./format.ts";

function ConversationItem({ conversation }: { conversation: Conversation }) {
  const when = lastActivity(conversation);
  return (
    <li>
      <Link
        to={chatPath(conversation)}
        className="flex items-center gap-3 rounded-xl border border-border bg-surface px-3 py-3 transition hover:border-border-strong hover:bg-surface-2 sm:gap-4 sm:px-4"
      >
        <Avatar name={conversation.character.name} src={conversation.character.avatar_url} size="lg" />
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="flex items-baseline gap-2">
            <span className="truncate font-semibold">{conversation.character.name}</span>
            <time
              dateTime={when}
              title={new Date(when).toLocaleString()}
              className="ml-auto shrink-0 text-xs text-muted"
            >
              {timeAgo(when)}
            </time>
          </span>
          <span className="line-clamp-2 text-sm text-muted">{preview(conversation)}</span>
        </span>
      </Link>
    </li>
  );
}

/** /chats: 'Your Previous Conversations', newest first, 25 at a time. */
export function ChatsScreen() {
  const me = useMe();
  const list = useInfiniteQuery({ ...conversationListQuery, enabled: !me?.is_guest });
  const conversations = list.data?.pages.flatMap((page) => page.conversations) ?? [];

  let body: ReactNode;
  if (me?.is_guest) {
    body = (
      <EmptyState
        icon={MessagesSquare}
        title="Guest chats aren't saved"
        action={
          <Button asChild>
            <Link to="/sign-up">Sign Up Free</Link>
          </Button>
        }
      >
        Create a free account to keep your conversations and come back to them here.
      </EmptyState>
    );
  } else if (list.isPending) {
    body = <PageSpinner label="Loading conversations" />;
  } else if (list.isError && conversations.length === 0) {
    body = (
      <Banner
        tone="danger"
        title="Your conversations couldn't be loaded"
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
      <EmptyState
        icon={MessagesSquare}
        title="No conversations yet"
        action={
          <Button asChild>
            <Link to="/">Find a character</Link>
          </Button>
        }
      >
        Pick a character and say hello. Your chats will be listed here so you can pick up where you left off.
      </EmptyState>
    );
  } else {
    body = (
      <div className="flex flex-col gap-4">
        <ul className="flex flex-col gap-2" aria-label="Conversations">
          {conversations.map((conversation) => (
            <ConversationItem key={conversation.id} conversation={conversation} />
          ))}
        </ul>
        {list.isFetchNextPageError ? <Banner tone="danger">{errorMessage(list.error)}</Banner> : null}
        {list.hasNextPage ? (
          <Button
            variant="outline"
            className="self-center"
            loading={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            Load More
          </Button>
        ) : null}
      </div>
    );
  }

  return (
    <Page width="medium">
      <PageHeader title="Your Previous Conversations" />
      {body}
    </Page>
  );
}
