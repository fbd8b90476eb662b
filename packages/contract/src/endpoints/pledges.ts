import { endpoint } from "../endpoint.ts";
import {
  pledgeAuthorization,
  pledgeLinkResult,
  pledgeOauthQuery,
  pledgeServiceParams,
  pledgeTransientParams,
} from "../pledges.ts";

/** Pledge linking (accounts-billing-admin §2.2, §4, §7): Patreon first. Signed-in members only. */
export const pledgeEndpoints = {
  authorize: endpoint({
    method: "GET",
    path: "/api/link/{pledge_service}",
    summary: "Where to send the browser to authorize Hearth at the pledge platform (404: not set up here)",
    tag: "Pledges",
    access: "member",
    params: pledgeServiceParams,
    response: pledgeAuthorization,
  }),
  oauth: endpoint({
    method: "GET",
    path: "/api/link/{pledge_service}/oauth",
    summary:
      "The authorization return: exchanges the code, maps an active pledge to a tier; status success, invalid_pledge or error",
    tag: "Pledges",
    access: "member",
    params: pledgeServiceParams,
    query: pledgeOauthQuery,
    response: pledgeLinkResult,
  }),
  result: endpoint({
    method: "GET",
    path: "/api/link/{pledge_service}/{transientId}",
    summary: "A linking result again, by the transient id it came with (kept for a short while)",
    tag: "Pledges",
    access: "member",
    params: pledgeTransientParams,
    response: pledgeLinkResult,
  }),
};
