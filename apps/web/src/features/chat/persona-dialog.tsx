import type { Conversation, Persona } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Check, Plus, RotateCcw, UsersRound } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Avatar } from "../../ui/avatar.tsx";
import { Badge } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { personaErrorMessage, personaListQuery } from "../personas/api.ts";
import { type PersonasReturn, personasReturnState } from "../personas/return-state.ts";
import { updateConversation } from "./api.ts";

/** The persona a conversation speaks as: its own choice if it still exists, else the default. */
export function currentPersona(personas: Persona[] | undefined, conversation: Conversation): Persona | null {
  if (!personas) return null;
  const chosen = conversation.user_persona_id
    ? personas.find((persona) => persona.id === conversation.user_persona_id)
    : undefined;
  return chosen ?? personas.find((persona) => persona.is_default) ?? null;
}

function PersonaOption({
  persona,
  current,
  onChoose,
}: {
  persona: Persona;
  current: boolean;
  onChoose: () => void;
}) {
  return (
    <li>
      <button
        type="button"
        aria-pressed={current}
        onClick={onChoose}
        data-persona-option={persona.name}
        className={cn(
          "flex w-full items-center gap-3 rounded-lg border px-3 py-2.5 text-left transition",
          current ? "border-accent bg-accent-soft" : "border-border-strong hover:bg-surface-2",
        )}
      >
        <Avatar name={persona.name} src={persona.avatar_url} size="md" />
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="flex items-center gap-2">
            <span className="truncate text-sm font-medium">{persona.name}</span>
            {persona.is_default ? <Badge tone="accent">Default</Badge> : null}
          </span>
          {persona.highlights ? (
            <span className="line-clamp-1 text-xs text-muted">{persona.highlights}</span>
          ) : null}
        </span>
        {current ? <Check aria-hidden className="size-4 shrink-0 text-accent-text" /> : null}
      </button>
    </li>
  );
}

/**
 * Change Persona (§2 menu and modals): pick one of the user's personas, then confirm in the
 * 'Change persona?' step. The conversation keeps the choice; its next prompt speaks as it.
 */
export function PersonaDialog({
  conversation,
  open,
  onOpenChange,
}: {
  conversation: Conversation;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const personas = useQuery({ ...personaListQuery(), enabled: open });
  const [confirming, setConfirming] = useState<Persona | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = currentPersona(personas.data?.personas, conversation);
  const back: PersonasReturn = personasReturnState(conversation);

  const close = (next: boolean) => {
    if (!next) {
      setConfirming(null);
      setError(null);
    }
    onOpenChange(next);
  };

  const confirm = async () => {
    if (!confirming) return;
    setPending(true);
    setError(null);
    try {
      await updateConversation(queryClient, conversation.id, { user_persona_id: confirming.id });
      close(false);
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setPending(false);
    }
  };

  const manage = (
    <Button asChild variant="ghost" className="sm:mr-auto">
      <Link to="/personas" state={back}>
        <UsersRound aria-hidden />
        Manage personas
      </Link>
    </Button>
  );

  return (
    <Dialog open={open} onOpenChange={close}>
      {open && confirming ? (
        <DialogContent
          title="Change persona?"
          description={`${conversation.character.name} will know you as ${confirming.name} from your next message. Earlier messages stay as they are.`}
        >
          {error ? <Banner tone="danger">{error}</Banner> : null}
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(null)} disabled={pending}>
              Back
            </Button>
            <Button loading={pending} onClick={() => void confirm()}>
              Change persona
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : open ? (
        <DialogContent
          title="Change Persona"
          description={`Who you are in this chat with ${conversation.character.name}.`}
        >
          {personas.isPending ? (
            <div className="flex justify-center py-6 text-muted">
              <Spinner label="Loading personas" />
            </div>
          ) : personas.isError ? (
            <Banner
              tone="danger"
              action={
                <Button size="sm" variant="outline" onClick={() => void personas.refetch()}>
                  <RotateCcw aria-hidden />
                  Try again
                </Button>
              }
            >
              {personaErrorMessage(personas.error)}
            </Banner>
          ) : personas.data.personas.length === 0 ? (
            <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border-strong px-4 py-8 text-center">
              <p className="text-sm text-muted">
                You have no personas yet. A persona tells characters who you are: a name and a few highlights.
              </p>
              <Button asChild size="sm">
                <Link to="/personas/create" state={back}>
                  <Plus aria-hidden />
                  Create a persona
                </Link>
              </Button>
            </div>
          ) : (
            <ul
              className="-m-1 flex max-h-[50dvh] flex-col gap-2 overflow-y-auto p-1"
              aria-label="Your personas"
            >
              {personas.data.personas.map((persona) => (
                <PersonaOption
                  key={persona.id}
                  persona={persona}
                  current={persona.id === current?.id}
                  onChoose={() => {
                    if (persona.id !== current?.id) setConfirming(persona);
                  }}
                />
              ))}
            </ul>
          )}
          <DialogFooter>
            {manage}
            <DialogClose asChild>
              <Button variant="outline">Close</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
