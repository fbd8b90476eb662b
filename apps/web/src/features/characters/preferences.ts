import { useAppSettings } from "../../lib/app-settings.ts";
import { useAppConfig } from "../../lib/session.ts";
import { useStored } from "./local-store.ts";

/** Whether NSFW characters are listed and their avatars shown unblurred (kept on this device). */
export function useShowNsfw(): [boolean, (show: boolean) => void] {
  return useStored<boolean>("hearth.nsfw", false);
}

/**
 * The "new profile" feature flag of chat-and-characters §2 (a two-column profile), from the
 * operator's configuration (HEARTH_FLAG_NEW_PROFILE, served by /api/app-settings).
 */
export function useNewProfileFlag(): boolean {
  return useAppSettings().flags.new_profile;
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
