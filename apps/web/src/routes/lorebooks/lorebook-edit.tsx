import { useParams } from "@tanstack/react-router";
import { canUseLorebooks } from "../../features/lorebooks/api.ts";
import { EditLorebookPage } from "../../features/lorebooks/lorebook-page.tsx";
import { SignedOutLorebooks } from "../../features/lorebooks/signed-out-lorebooks.tsx";
import { useMe } from "../../lib/session.ts";

/** /lorebooks/{id}: edit, export one of the member's lorebooks. */
export default function LorebookEditRoute() {
  const me = useMe();
  const { lorebookId = "" } = useParams({ strict: false }) as { lorebookId?: string };
  if (!canUseLorebooks(me)) return <SignedOutLorebooks redirectTo="/lorebooks" />;
  return <EditLorebookPage key={lorebookId} id={lorebookId} />;
}
