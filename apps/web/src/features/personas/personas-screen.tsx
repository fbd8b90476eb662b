import type { Persona } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowLeft, Plus, RotateCcw, Search, UsersRound } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Input } from "../../ui/input.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner, Spinner } from "../../ui/spinner.tsx";
import { personaErrorMessage, personaListQuery, setDefaultPersona } from "./api.ts";
import { DeletePersonaDialog } from "./delete-persona-dialog.tsx";
import { PersonaCard } from "./persona-card.tsx";
import { keepReturn, usePersonasReturn } from "./return-state.ts";

/**
 * My Personas (chat-and-characters §2): search by the start of a name, a grid of cards, Create
 * New, and 'Go Back to {character}' when the user came from a chat.
 */
export function PersonasScreen() {
  const queryClient = useQueryClient();
  const back = usePersonasReturn();
  const linkState = keepReturn(back);
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search.trim(), 250);
  const list = useQuery(personaListQuery(q));
  const [deleting, setDeleting] = useState<Persona | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const personas = list.data?.personas ?? [];

  const makeDefault = async (persona: Persona) => {
    setBusyId(persona.id);
    setActionError(null);
    try {
      await setDefaultPersona(queryClient, persona.id);
    } catch (caught) {
      setActionError(personaErrorMessage(caught));
    } finally {
      setBusyId(null);
    }
  };

  let body: ReactNode;
  if (list.isPending) {
    body = <PageSpinner label="Loading personas" />;
  } else if (list.isError && personas.length === 0) {
    body = (
      <Banner
        tone="danger"
        title="Your personas couldn't be loaded"
        action={
          <Button size="sm" variant="outline" onClick={() => void list.refetch()}>
            <RotateCcw aria-hidden />
            Try again
          </Button>
        }
      >
        {personaErrorMessage(list.error)}
      </Banner>
    );
  } else if (personas.length === 0 && q) {
    body = (
      <EmptyState icon={Search} title="No matches" headingLevel={2}>
        None of your personas has a name starting with “{q}”.
      </EmptyState>
    );
  } else if (personas.length === 0) {
    body = (
      <EmptyState
        icon={UsersRound}
        title="No personas yet"
        headingLevel={2}
        action={
          <Button asChild>
            <Link to="/personas/create" state={linkState}>
              <Plus aria-hidden />
              Create New
            </Link>
          </Button>
        }
      >
        A persona is who you are in a chat: a name, a picture and a few highlights. Your first one becomes
        your default, and you can switch persona in any chat.
      </EmptyState>
    );
  } else {
    body = (
      <ul
        aria-label="Personas"
        aria-busy={list.isFetching || undefined}
        className="grid grid-cols-2 gap-3 sm:grid-cols-[repeat(auto-fill,180px)] sm:gap-5"
      >
        {personas.map((persona) => (
          <li key={persona.id} className="flex">
            <PersonaCard
              persona={persona}
              linkState={linkState}
              busy={busyId === persona.id}
              onSetDefault={() => void makeDefault(persona)}
              onDelete={() => setDeleting(persona)}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Page>
      {back ? (
        <Button asChild variant="ghost" size="sm" className="-mt-2 mb-3 -ml-3 max-w-full sm:-mt-4">
          <Link to={back.href}>
            <ArrowLeft aria-hidden />
            <span className="truncate">Go Back to {back.name}</span>
          </Link>
        </Button>
      ) : null}
      <PageHeader
        title="My Personas"
        description="Who you are in your chats. Characters know you by your persona's name and highlights."
        actions={
          <Button asChild>
            <Link to="/personas/create" state={linkState}>
              <Plus aria-hidden />
              Create New
            </Link>
          </Button>
        }
      />
      <div className="mb-5 flex items-center gap-3 sm:mb-6">
        <div className="relative w-full max-w-sm">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
          />
          <Input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search personas"
            aria-label="Search personas by name"
            className="pl-9"
          />
        </div>
        {list.isFetching && !list.isPending ? (
          <Spinner size="sm" label="Searching" className="text-muted" />
        ) : null}
      </div>
      {actionError ? (
        <Banner tone="danger" className="mb-4">
          {actionError}
        </Banner>
      ) : null}
      {body}
      <DeletePersonaDialog persona={deleting} onClose={() => setDeleting(null)} />
    </Page>
  );
}
