import { type Character, mentionsUser, resolveMacros } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Flag, Heart, MessageCircle, MessagesSquare, Pencil, ThumbsUp, Type } from "lucide-react";
import { Tooltip } from "radix-ui";
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useMe } from "../../lib/session.ts";
import { Button } from "../../ui/button.tsx";
import { MessageText } from "../chat/message-text.tsx";
import { personaListQuery } from "../personas/api.ts";
import { useFavorite } from "./api.ts";
import { compactCount, exactCount, likePercent } from "./format.ts";
import { chatBuilt, chatHref, editHref, reportBuilt } from "./links.ts";
import { ShareDialog } from "./share-dialog.tsx";

/** Chat Now: the chat screen when it exists, else a disabled button that says why. */
export function ChatNowButton({ character, className }: { character: Character; className?: string }) {
  if (chatBuilt()) {
    return (
      <Button asChild className={className}>
        <Link to={chatHref(character.id)}>
          <MessagesSquare aria-hidden />
          Chat Now
        </Link>
      </Button>
    );
  }
  return (
    <Tooltip.Provider delayDuration={100}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <Button
            aria-disabled="true"
            aria-describedby="chat-soon"
            className={`cursor-not-allowed opacity-60 hover:brightness-100 ${className ?? ""}`}
            onClick={(event) => event.preventDefault()}
          >
            <MessagesSquare aria-hidden />
            Chat Now
          </Button>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content
            sideOffset={6}
            className="z-50 rounded-md bg-fg px-2.5 py-1.5 text-xs font-medium text-bg shadow-pop animate-fade-in"
          >
            Chat arrives soon
            <Tooltip.Arrow className="fill-fg" />
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
      <span id="chat-soon" className="sr-only">
        Chat arrives soon
      </span>
    </Tooltip.Provider>
  );
}

/** Favorite / Favorited, hidden for the creator and for guests (chat-and-characters §6). */
export function FavoriteButton({ character }: { character: Character }) {
  const me = useMe();
  const favorite = useFavorite(character.id);
  if (!me || me.is_guest || character.is_creator) return null;
  const on = character.is_favorite;
  return (
    <div className="flex flex-col gap-1">
      <Button
        variant={on ? "secondary" : "outline"}
        aria-pressed={on}
        disabled={favorite.isPending}
        onClick={() => favorite.mutate(!on)}
      >
        <Heart aria-hidden className={on ? "fill-current text-danger" : undefined} />
        {on ? "Favorited" : "Favorite"}
      </Button>
      {favorite.error ? (
        <p role="alert" className="text-xs text-danger">
          {errorMessage(favorite.error)}
        </p>
      ) : null}
    </div>
  );
}

/** Report this bot (members with report_character; the creator reports from My Chatbots). */
function ReportLink({ character }: { character: Character }) {
  const me = useMe();
  if (character.is_creator || !reportBuilt() || !me?.permissions.includes("report_character")) return null;
  return (
    <Button asChild variant="outline">
      <Link to={`/report/${encodeURIComponent(character.id)}`}>
        <Flag aria-hidden />
        Report
      </Link>
    </Button>
  );
}

/** Chat Now, Favorite, Share (public or hidden bots), Edit (the creator), Report (members). */
export function ProfileActions({ character, stacked }: { character: Character; stacked?: boolean }) {
  const shareable = character.visibility === "public" || character.visibility === "hidden";
  return (
    <div
      className={
        stacked
          ? "flex flex-col gap-2 [&>*]:w-full [&_a]:w-full [&_button]:w-full"
          : "grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-start [&_button]:w-full sm:[&_button]:w-auto [&>a]:w-full sm:[&>a]:w-auto"
      }
    >
      <ChatNowButton character={character} className="col-span-2" />
      <FavoriteButton character={character} />
      {shareable ? <ShareDialog characterId={character.id} name={character.name} /> : null}
      <ReportLink character={character} />
      {character.is_creator ? (
        <Button asChild variant="outline">
          <Link to={editHref(character.id)}>
            <Pencil aria-hidden />
            Edit
          </Link>
        </Button>
      ) : null}
    </div>
  );
}

function Stat({ icon: Icon, value, label }: { icon: typeof Heart; value: string; label: string }) {
  return (
    <div className="flex items-center gap-2">
      <Icon aria-hidden className="size-4 text-muted" />
      <dd className="font-semibold tabular-nums">{value}</dd>
      <dt className="text-sm text-muted">{label}</dt>
    </div>
  );
}

/** Message count, like percent and (unless hidden) token count. */
export function ProfileStats({
  character,
  showTokens = true,
}: {
  character: Character;
  showTokens?: boolean;
}) {
  const likes = likePercent(character.rating_score);
  return (
    <dl className="flex flex-wrap gap-x-5 gap-y-2" aria-label="Figures">
      <Stat
        icon={MessageCircle}
        value={compactCount(character.num_messages)}
        label={character.num_messages === 1 ? "message" : "messages"}
      />
      <Stat icon={ThumbsUp} value={likes ?? "–"} label={likes ? "liked" : "no ratings yet"} />
      {showTokens ? <Stat icon={Type} value={exactCount(character.token_count)} label="tokens" /> : null}
    </dl>
  );
}

export function TagList({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
      {tags.map((tag) => (
        <li key={tag} className="rounded-full bg-surface-2 px-2.5 py-0.5 text-sm text-muted">
          {tag}
        </li>
      ))}
    </ul>
  );
}

/** Long text kept to a few lines until asked for (keeps the profile scannable). */
export function LongText({ text, lines = 8 }: { text: string; lines?: number }) {
  const [open, setOpen] = useState(false);
  const long = text.length > 700 || text.split("\n").length > lines;
  return (
    <div className="flex flex-col items-start gap-2">
      <p
        className="leading-relaxed break-words whitespace-pre-wrap"
        style={
          long && !open
            ? {
                display: "-webkit-box",
                WebkitLineClamp: lines,
                WebkitBoxOrient: "vertical",
                overflow: "hidden",
              }
            : undefined
        }
      >
        {text}
      </p>
      {long ? <ShowMoreButton open={open} onToggle={() => setOpen(!open)} /> : null}
    </div>
  );
}

/**
 * Who {{user}} is for this reader, as the chat will have it: a member's default persona, else
 * their name. A signed-out visitor reads it as the guest they would chat as ("Guest", the name
 * guests get). Personas are only asked for when the text names the user.
 */
function useReaderName(text: string): string {
  const me = useMe();
  const member = Boolean(me && !me.is_guest);
  const personas = useQuery({ ...personaListQuery(), enabled: member && mentionsUser(text) });
  if (!me) return "Guest";
  const fallback = me.name.trim() || "User";
  if (!member) return fallback;
  // The default persona comes first in the list.
  const persona = personas.data?.personas[0];
  return persona?.is_default ? persona.name : fallback;
}

/** Rich text kept to a few lines' height until asked for; the button only when it overflows. */
function Collapsible({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [overflows, setOverflows] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again whenever the content (children) changes
  useLayoutEffect(() => {
    const element = box.current;
    if (element && !open) setOverflows(element.scrollHeight > element.clientHeight + 1);
  }, [open, children]);
  return (
    <div className="flex flex-col items-start gap-2">
      <div ref={box} className={open ? undefined : "max-h-64 overflow-hidden"}>
        {children}
      </div>
      {overflows ? <ShowMoreButton open={open} onToggle={() => setOpen(!open)} /> : null}
    </div>
  );
}

/** The greeting as the chat shows it: the chat's Markdown, with {{char}} and {{user}} resolved. */
export function GreetingText({ character }: { character: Pick<Character, "greeting" | "name"> }) {
  const userName = useReaderName(character.greeting);
  return (
    <Collapsible>
      <MessageText text={resolveMacros(character.greeting, character.name, userName)} />
    </Collapsible>
  );
}

export function ProfileSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2 rounded-xl border border-border bg-surface p-4 sm:p-5">
      <h2 className="text-sm font-semibold tracking-wider text-muted uppercase">{title}</h2>
      {children}
    </section>
  );
}

/** Personality, scenario and example dialogue, or a note that the creator keeps them private. */
export function DefinitionSections({ character }: { character: Character }) {
  if (character.definition_hidden) {
    return (
      <p className="rounded-xl border border-dashed border-border-strong px-4 py-3 text-sm text-muted">
        The creator keeps this chatbot's personality, scenario and example dialogue private.
      </p>
    );
  }
  return (
    <>
      {character.persona ? (
        <ProfileSection title="Personality">
          <LongText text={character.persona} />
        </ProfileSection>
      ) : null}
      {character.scenario ? (
        <ProfileSection title="Scenario">
          <LongText text={character.scenario} />
        </ProfileSection>
      ) : null}
      {character.dialogue ? (
        <ProfileSection title="Example dialogues">
          <LongText text={character.dialogue} />
        </ProfileSection>
      ) : null}
    </>
  );
}

/** Opens and closes a clamped block of text. */
function ShowMoreButton({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <Button variant="link" size="sm" className="h-auto px-0" aria-expanded={open} onClick={onToggle}>
      {open ? "Show less" : "Show more"}
    </Button>
  );
}
