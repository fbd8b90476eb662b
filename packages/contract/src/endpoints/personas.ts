import { endpoint, idParams } from "../endpoint.ts";
import { persona, personaCreate, personaList, personaListQuery, personaUpdate } from "../personas.ts";

/**
 * Personas (apps/server/src/features/personas): the viewer's own identities in chats. Only the
 * owner sees a persona; another user's answers 404 `persona_not_found` like a missing one.
 * Guests and limited accounts are refused with 403 `personas_not_allowed`.
 */
export const personaEndpoints = {
  list: endpoint({
    method: "GET",
    path: "/api/personas",
    summary: "The viewer's personas, the default first, then by name; `q` is a name prefix",
    tag: "Personas",
    access: "member",
    query: personaListQuery,
    response: personaList,
  }),
  create: endpoint({
    method: "POST",
    path: "/api/personas",
    summary: "Create a persona (the first becomes the default); names are unique per user, ignoring case",
    tag: "Personas",
    access: "member",
    body: personaCreate,
    response: persona,
    status: 201,
  }),
  get: endpoint({
    method: "GET",
    path: "/api/personas/{id}",
    summary: "One of the viewer's personas",
    tag: "Personas",
    access: "member",
    params: idParams,
    response: persona,
  }),
  update: endpoint({
    method: "PATCH",
    path: "/api/personas/{id}",
    summary: "Change a persona's name or highlights (only the fields sent)",
    tag: "Personas",
    access: "member",
    params: idParams,
    body: personaUpdate,
    response: persona,
  }),
  delete: endpoint({
    method: "DELETE",
    path: "/api/personas/{id}",
    summary: "Delete a persona and its avatar (the default persona cannot be deleted: 409)",
    tag: "Personas",
    access: "member",
    params: idParams,
    response: null,
  }),
  setDefault: endpoint({
    method: "POST",
    path: "/api/personas/{id}/default",
    summary: "Make a persona the default (exactly one is)",
    tag: "Personas",
    access: "member",
    params: idParams,
    response: persona,
  }),
  uploadAvatar: endpoint({
    method: "POST",
    path: "/api/personas/{id}/avatar",
    summary: "Upload a persona's avatar (PNG, JPEG, WebP or GIF, as multipart field `file`)",
    tag: "Personas",
    access: "member",
    params: idParams,
    body: "multipart",
    response: persona,
  }),
  removeAvatar: endpoint({
    method: "DELETE",
    path: "/api/personas/{id}/avatar",
    summary: "Remove a persona's avatar and its files",
    tag: "Personas",
    access: "member",
    params: idParams,
    response: persona,
  }),
};
