import {
  type Persona,
  type PersonaCreate,
  type PersonaErrorType,
  type PersonaUpdate,
  personaEndpoints,
  uuidParam,
} from "@hearth/contract";
import { personaErrorMessages } from "@hearth/contract/labels";
import { keepPreviousData, type QueryClient, queryOptions } from "@tanstack/react-query";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { type UploadProgress, uploadTo } from "../../lib/upload.ts";

/** The viewer's personas (chat-and-characters §2 Personas pages, §4 "Persona default"). */

const root = ["personas"] as const;
export const personaKeys = {
  all: root,
  list: (q: string) => [...root, "list", q] as const,
  detail: (id: string) => [...root, "detail", id] as const,
};

/** `q` is a case-insensitive prefix of the name, matched by the server; the default comes first. */
export const personaListQuery = (q = "") =>
  queryOptions({
    queryKey: personaKeys.list(q.trim()),
    queryFn: ({ signal }) => call(personaEndpoints.list, { query: { q: q.trim() || undefined }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/**
 * Persona ids are UUIDs; the server refuses anything else with a 400, so a page whose address
 * names something else can say "not found" without asking.
 */
export const isPersonaId = (id: string) => uuidParam.safeParse(id).success;

export const personaQuery = (id: string) =>
  queryOptions({
    queryKey: personaKeys.detail(id),
    queryFn: ({ signal }) => call(personaEndpoints.get, { params: { id }, signal }),
  });

/** After any change: lists are read again, the changed persona is seeded. */
function changed(queryClient: QueryClient, persona?: Persona) {
  if (persona) queryClient.setQueryData(personaKeys.detail(persona.id), persona);
  void queryClient.invalidateQueries({ queryKey: [...root, "list"] });
}

export async function createPersona(queryClient: QueryClient, body: PersonaCreate) {
  const persona = await call(personaEndpoints.create, { body });
  changed(queryClient, persona);
  return persona;
}

export async function updatePersona(queryClient: QueryClient, id: string, body: PersonaUpdate) {
  const persona = await call(personaEndpoints.update, { params: { id }, body });
  changed(queryClient, persona);
  return persona;
}

export async function deletePersona(queryClient: QueryClient, id: string) {
  await call(personaEndpoints.delete, { params: { id } });
  queryClient.removeQueries({ queryKey: personaKeys.detail(id) });
  changed(queryClient);
}

export async function setDefaultPersona(queryClient: QueryClient, id: string) {
  const persona = await call(personaEndpoints.setDefault, { params: { id } });
  // The old default changed too: drop every cached persona.
  void queryClient.invalidateQueries({ queryKey: root });
  return persona;
}

export async function uploadPersonaAvatar(
  queryClient: QueryClient,
  id: string,
  file: File,
  onProgress?: (progress: UploadProgress) => void,
) {
  const persona = await uploadTo(personaEndpoints.uploadAvatar, { id }, file, onProgress);
  changed(queryClient, persona);
  return persona;
}

export async function removePersonaAvatar(queryClient: QueryClient, id: string) {
  const persona = await call(personaEndpoints.removeAvatar, { params: { id } });
  changed(queryClient, persona);
  return persona;
}

/**
 * What to tell the user about a failed persona call (§8: "Persona errors show a message chosen
 * by error_type"), and the server's own words where they add something (the plan's limit).
 */
export function personaError(error: unknown): { message: string; detail: string | null } {
  if (isApiRequestError(error) && error.errorType && error.errorType in personaErrorMessages) {
    const type = error.errorType as PersonaErrorType;
    const message = personaErrorMessages[type];
    const detail = type === "persona_limit_reached" && error.message !== message ? error.message : null;
    return { message, detail };
  }
  return { message: errorMessage(error), detail: null };
}

export function personaErrorMessage(error: unknown): string {
  const { message, detail } = personaError(error);
  return detail ? `${message} ${detail}` : message;
}
