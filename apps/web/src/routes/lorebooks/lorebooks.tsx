import { canUseLorebooks } from "../../features/lorebooks/api.ts";
import { LorebooksScreen } from "../../features/lorebooks/lorebooks-screen.tsx";
import { SignedOutLorebooks } from "../../features/lorebooks/signed-out-lorebooks.tsx";
import { useMe } from "../../lib/session.ts";

/** /lorebooks: the member's standalone lorebooks; guests see a sign-up prompt. */
export default function LorebooksRoute() {
  const me = useMe();
  if (!canUseLorebooks(me)) return <SignedOutLorebooks redirectTo="/lorebooks" />;
  return <LorebooksScreen />;
}
