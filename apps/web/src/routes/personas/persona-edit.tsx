import { personaErrorMessages } from "@hearth/contract/labels";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { RotateCcw, UserRoundX } from "lucide-react";
import { isPersonaId, personaErrorMessage, personaQuery } from "../../features/personas/api.ts";
import { PersonaForm } from "../../features/personas/persona-form.tsx";
import { keepReturn, usePersonasReturn } from "../../features/personas/return-state.ts";
import { SignedOutPersonas } from "../../features/personas/signed-out-personas.tsx";
import { isApiRequestError } from "../../lib/api.ts";
import { useMe } from "../../lib/session.ts";
import { Badge } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";

function EditPersona({ personaId }: { personaId: string }) {
  const valid = isPersonaId(personaId);
  const persona = useQuery({ ...personaQuery(personaId), enabled: valid });
  const back = usePersonasReturn();
  const notFound = (message: string) => (
    <EmptyState
      icon={UserRoundX}
      title="Persona not found"
      headingLevel={2}
      action={
        <Button asChild>
          <Link to="/personas" state={keepReturn(back)}>
            My Personas
          </Link>
        </Button>
      }
    >
      {message}
    </EmptyState>
  );
  // An address that names no possible persona (the server would refuse it with a 400).
  if (!valid) return notFound(personaErrorMessages.persona_not_found);
  if (persona.isPending) return <PageSpinner label="Loading persona" />;
  if (persona.isError) {
    if (isApiRequestError(persona.error) && persona.error.status === 404) {
      return notFound(personaErrorMessage(persona.error));
    }
    return (
      <Banner
        tone="danger"
        title="This persona couldn't be loaded"
        action={
          <Button size="sm" variant="outline" onClick={() => void persona.refetch()}>
            <RotateCcw aria-hidden />
            Try again
          </Button>
        }
      >
        {personaErrorMessage(persona.error)}
      </Banner>
    );
  }
  return <PersonaForm key={persona.data.id} persona={persona.data} />;
}

/** /personas/edit/{personaId}: the Persona page for one of the user's personas (chat-and-characters §2). */
export default function PersonaEditRoute() {
  const me = useMe();
  const { personaId = "" } = useParams({ strict: false }) as { personaId?: string };
  const persona = useQuery({
    ...personaQuery(personaId),
    enabled: Boolean(me && !me.is_guest) && isPersonaId(personaId),
  });
  if (!me || me.is_guest) {
    return (
      <SignedOutPersonas title="Persona" redirectTo={`/personas/edit/${encodeURIComponent(personaId)}`} />
    );
  }
  return (
    <Page width="medium">
      <PageHeader
        title={
          <span className="flex items-center gap-3">
            Persona
            {persona.data?.is_default ? <Badge tone="accent">Default</Badge> : null}
          </span>
        }
        description="Change who you are in your chats. Chats use the new details from their next message."
      />
      <EditPersona personaId={personaId} />
    </Page>
  );
}
