import {
  applyTagChange,
  type Character,
  MAX_TAGS,
  TAG_SUGGESTION_MESSAGE_MS,
  tagSuggestionMessages,
} from "@hearth/contract";
import { characterLimits } from "@hearth/contract/labels";
import { useQuery } from "@tanstack/react-query";
import { Plus, Tags, X } from "lucide-react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { useMe } from "../../lib/session.ts";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import { tagsQuery } from "../characters/api.ts";
import { useStored } from "../characters/local-store.ts";
import { sendEvent } from "./api.ts";

/** The suggestion last sent for a bot, kept in this browser (chat-and-characters §3, §4). */
interface SentSuggestion {
  add: string[];
  remove: string[];
  sent_at: string;
}
const storeKey = (userId: string, characterId: string) => `hearth.tagSuggestion.${userId}.${characterId}`;

type Notice = { text: string; tone: "success" | "danger" } | null;

/** A result message that clears itself after 3 s (§4 "Tag suggestion", §9). */
function useNotice(): [Notice, (n: Notice) => void] {
  const [notice, setNotice] = useState<Notice>(null);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), TAG_SUGGESTION_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  return [notice, setNotice];
}

function NoticeLine({ notice }: { notice: Notice }) {
  return (
    <p
      role="status"
      data-tag-suggestion-notice
      className={cn(
        "min-h-5 text-sm",
        notice?.tone === "danger" ? "text-danger" : "text-success",
        !notice && "sr-only",
      )}
    >
      {notice?.text}
    </p>
  );
}

const normalise = (tag: string) => tag.trim().toLowerCase().replace(/\s+/g, " ");

function SuggestForm({
  character,
  initial,
  notice,
  setNotice,
  onSent,
  onDiscarded,
}: {
  character: Character;
  initial: SentSuggestion | null;
  notice: Notice;
  setNotice: (n: Notice) => void;
  onSent: (s: SentSuggestion) => void;
  onDiscarded: () => void;
}) {
  const known = useQuery(tagsQuery(false));
  const [add, setAdd] = useState<string[]>(initial?.add ?? []);
  const [remove, setRemove] = useState<string[]>(initial?.remove ?? []);
  const [draft, setDraft] = useState("");
  const [pending, setPending] = useState<"send" | "discard" | null>(null);
  const inputId = useId();
  const listId = useId();
  const result = applyTagChange(character.tags, add, remove);

  const addDraft = () => {
    const tag = normalise(draft);
    if (!tag) return;
    if (character.tags.includes(tag)) setRemove(remove.filter((t) => t !== tag));
    else if (!add.includes(tag)) setAdd([...add, tag]);
    setDraft("");
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (add.length === 0 && remove.length === 0) {
      setNotice({ text: tagSuggestionMessages.empty, tone: "danger" });
      return;
    }
    if (result.length > MAX_TAGS) {
      setNotice({ text: tagSuggestionMessages.tooMany, tone: "danger" });
      return;
    }
    setPending("send");
    try {
      await sendEvent({
        event_name: "characterSuggestTags",
        character_id: character.id,
        tags_to_add: add,
        tags_to_remove: remove,
      });
      onSent({ add, remove, sent_at: new Date().toISOString() });
    } catch {
      setNotice({ text: tagSuggestionMessages.failed, tone: "danger" });
      setPending(null);
    }
  };

  // Discard sends empty lists: the server drops this member's pending suggestion.
  const discard = async () => {
    setPending("discard");
    try {
      await sendEvent({
        event_name: "characterSuggestTags",
        character_id: character.id,
        tags_to_add: [],
        tags_to_remove: [],
      });
      onDiscarded();
    } catch {
      setNotice({ text: tagSuggestionMessages.discardFailed, tone: "danger" });
      setPending(null);
    }
  };

  return (
    <form onSubmit={send} className="flex flex-col gap-5">
      {character.tags.length ? (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium">Remove tags</legend>
          <div className="flex flex-wrap gap-2">
            {character.tags.map((tag) => {
              const removing = remove.includes(tag);
              return (
                <button
                  key={tag}
                  type="button"
                  aria-pressed={removing}
                  aria-label={`Remove ${tag}`}
                  onClick={() => setRemove(removing ? remove.filter((t) => t !== tag) : [...remove, tag])}
                  className={cn(
                    "inline-flex items-center gap-1 rounded-full border px-3 py-1 text-sm transition-colors",
                    removing
                      ? "border-danger bg-danger-soft text-fg line-through"
                      : "border-border-strong hover:bg-surface-2",
                  )}
                >
                  {tag}
                  {removing ? <X aria-hidden className="size-3.5" /> : null}
                </button>
              );
            })}
          </div>
        </fieldset>
      ) : null}
      <div className="flex flex-col gap-2">
        <Label htmlFor={inputId}>Add tags</Label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            list={listId}
            value={draft}
            maxLength={characterLimits.tag}
            autoComplete="off"
            placeholder="Pick a known tag or type one"
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                addDraft();
              }
            }}
          />
          <Button variant="outline" onClick={addDraft} disabled={!normalise(draft)}>
            <Plus aria-hidden />
            Add
          </Button>
        </div>
        <datalist id={listId}>
          {(known.data?.tags ?? [])
            .filter((t) => !character.tags.includes(t.tag) && !add.includes(t.tag))
            .map((t) => (
              <option key={t.tag} value={t.tag} />
            ))}
        </datalist>
        {add.length ? (
          <ul aria-label="Tags to add" className="flex flex-wrap gap-2">
            {add.map((tag) => (
              <li key={tag}>
                <button
                  type="button"
                  aria-label={`Don't add ${tag}`}
                  onClick={() => setAdd(add.filter((t) => t !== tag))}
                  className="inline-flex items-center gap-1 rounded-full border border-accent bg-accent-soft px-3 py-1 text-sm"
                >
                  + {tag}
                  <X aria-hidden className="size-3.5" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <p className={cn("text-sm", result.length > MAX_TAGS ? "text-danger" : "text-muted")}>
        {result.length} of {MAX_TAGS} tags after your changes
      </p>
      <NoticeLine notice={notice} />
      <DialogFooter className="mt-0">
        {initial ? (
          <Button
            variant="ghost"
            className="sm:mr-auto"
            loading={pending === "discard"}
            disabled={pending !== null}
            onClick={() => void discard()}
          >
            Discard suggestion
          </Button>
        ) : null}
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" loading={pending === "send"} disabled={pending !== null}>
          Send suggestions
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * The profile's tag suggestion control (chat-and-characters §2, §4, §5): members suggest tags to
 * add (from the known tags or their own) and to remove; the creator accepts or dismisses them in
 * the editor. The last suggestion sent is kept per bot in this browser and can be discarded.
 */
export function SuggestTags({ character }: { character: Character }) {
  const me = useMe();
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useNotice();
  const [sent, setSent] = useStored<SentSuggestion | null>(
    storeKey(me?.id ?? "signed-out", character.id),
    null,
  );
  const reachable = character.visibility === "public" || character.visibility === "hidden";
  if (!me || me.is_guest || character.is_creator || !reachable) return null;
  if (me.permissions.includes("limited_access")) return null;
  return (
    <div className="flex flex-col gap-1">
      <Dialog open={open} onOpenChange={setOpen}>
        <Button variant="outline" size="sm" className="w-fit" onClick={() => setOpen(true)}>
          <Tags aria-hidden />
          {sent ? "Change tag suggestion" : "Suggest tags"}
        </Button>
        {open ? (
          <DialogContent
            title="Suggest tags"
            description={`The creator of ${character.name} decides which suggestions to take. A chatbot keeps ${MAX_TAGS} tags at most.`}
          >
            <SuggestForm
              character={character}
              initial={sent}
              notice={notice}
              setNotice={setNotice}
              onSent={(s) => {
                setSent(s);
                setOpen(false);
                setNotice({ text: tagSuggestionMessages.sent, tone: "success" });
              }}
              onDiscarded={() => {
                setSent(null);
                setOpen(false);
                setNotice({ text: tagSuggestionMessages.discarded, tone: "success" });
              }}
            />
          </DialogContent>
        ) : null}
      </Dialog>
      {open ? null : <NoticeLine notice={notice} />}
    </div>
  );
}
