import { useAppConfig } from "../../lib/session.ts";
import { useStored } from "./local-store.ts";

/** Whether NSFW characters are listed and their avatars shown unblurred (kept on this device). */
export function useShowNsfw(): [boolean, (show: boolean) => void] {
  return useStored<boolean>("hearth.nsfw", false);
}

/**
 * The "new profile" feature flag of chat-and-characters §2 (a two-column profile). Set it with
 * `localStorage.setItem("hearth.flags.newProfile", "true")`.
 */
export function useNewProfileFlag(): boolean {
  const [value] = useStored<boolean>("hearth.flags.newProfile", false);
  return value === true;
}

/**
 * Whether NSFW is shown to this viewer: the family edition never shows it, partner mode forces it
 * on (accounts-billing-admin §4), otherwise the viewer's own switch decides.
 */
export function useEffectiveNsfw(): boolean {
  const { edition } = useAppConfig();
  const [stored] = useShowNsfw();
  return edition === "family" ? false : edition === "partner" ? true : stored;
}
