import { PersonaForm } from "../../features/personas/persona-form.tsx";
import { SignedOutPersonas } from "../../features/personas/signed-out-personas.tsx";
import { useMe } from "../../lib/session.ts";
import { Page, PageHeader } from "../../ui/page.tsx";

/** /personas/create: the Persona page for a new persona (chat-and-characters §2). */
export default function PersonaCreateRoute() {
  const me = useMe();
  if (!me || me.is_guest) return <SignedOutPersonas title="Persona" redirectTo="/personas/create" />;
  return (
    <Page width="medium">
      <PageHeader
        title="Persona"
        description="Create who you are in your chats. Your first persona becomes your default."
      />
      <PersonaForm />
    </Page>
  );
}
