import { canUseLorebooks } from "../../features/lorebooks/api.ts";
import { NewLorebookPage } from "../../features/lorebooks/lorebook-page.tsx";
import { SignedOutLorebooks } from "../../features/lorebooks/signed-out-lorebooks.tsx";
import { useMe } from "../../lib/session.ts";

/** /lorebooks/new: write a lorebook from scratch. */
export default function LorebookCreateRoute() {
  const me = useMe();
  if (!canUseLorebooks(me)) return <SignedOutLorebooks redirectTo="/lorebooks/new" />;
  return <NewLorebookPage />;
}
