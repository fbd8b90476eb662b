import { me } from "../accounts.ts";
import { endpoint } from "../endpoint.ts";
import { guestKey, guestResume } from "../guest.ts";

/** Guests kept across a cleared cookie (apps/server/src/features/accounts/guest-resume.ts). */
export const guestEndpoints = {
  key: endpoint({
    method: "GET",
    path: "/api/guest/key",
    summary: "The signed-in guest's id and a key for it, which the browser keeps in local storage",
    tag: "Accounts",
    access: "member",
    response: guestKey,
  }),
  resume: endpoint({
    method: "POST",
    path: "/api/guest/resume",
    summary:
      "Start a session for the guest a stored id and key name, when the server still has that guest (401 otherwise)",
    tag: "Accounts",
    access: "anyone",
    body: guestResume,
    response: me,
  }),
};
