import { PersonasScreen } from "../../features/personas/personas-screen.tsx";
import { SignedOutPersonas } from "../../features/personas/signed-out-personas.tsx";
import { useMe } from "../../lib/session.ts";

/** /personas: My Personas (chat-and-characters §2); guests see a sign-up prompt (§6). */
export default function MyPersonasRoute() {
  const me = useMe();
  if (!me || me.is_guest) return <SignedOutPersonas title="My Personas" redirectTo="/personas" />;
  return <PersonasScreen />;
}
