import type { SubscriberRole } from "./permissions.ts";

// Display constants without zod, importable from "@hearth/contract/labels" so the client's first
// page load does not pull in the schema library.

/** What each role is called in the product. */
export const roleTitle: Record<SubscriberRole, string> = {
  free: "Free",
  minimal: "Get a Taste",
  basic: "True Supporter",
  premium: "I'm All In",
};
