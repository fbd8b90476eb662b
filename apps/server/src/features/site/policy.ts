import { EASTER_REFUSAL } from "@hearth/contract";
import type { Config } from "../../config.ts";
import { forbidden, notFound, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, type Viewer } from "../accounts/index.ts";

/** The Easter code (accounts-billing-admin §6): active premium subscribers only, with the spec's refusal. */
export function assertCanSeeEasterCode(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  if (viewer.isGuest || viewer.role !== "premium" || viewer.status !== "active")
    throw forbidden(EASTER_REFUSAL);
  return viewer;
}

/** Partner token login and external sign-up exist only in partner mode; elsewhere they are not there. */
export function assertPartnerMode(config: Pick<Config, "edition">): void {
  if (config.edition !== "partner") throw notFound("Partner mode is off.");
}
