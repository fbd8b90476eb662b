import type { Persona, PersonaErrorType, PersonaList, personaCreate, personaUpdate } from "@hearth/contract";
import { personaErrorMessages } from "@hearth/contract/labels";
import { keepPreviousData, type QueryClient, queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { api, errorMessage, isApiRequestError } from "../../lib/api.ts";
import { type UploadProgress, uploadFile } from "../characters/upload.ts";

/** The viewer's personas (chat-and-characters §2 Personas pages, §4 "Persona default"). */

const root = ["personas"] as const;
export const personaKeys = {
  all: root,
  list: (q: string) => [...root, "list", q] as const,
  detail: (id: string) => [...root, "detail", id] as const,
};

const path = (id: string) => `/api/personas/${encodeURIComponent(id)}`;

/** `q` is a case-insensitive prefix of the name, matched by the server; the default comes first. */
export const personaListQuery = (q = "") =>
  queryOptions({
    queryKey: personaKeys.list(q.trim()),
    queryFn: ({ signal }) => api.get<PersonaList>("/api/personas", { q: q.trim() || undefined }, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export const personaQuery = (id: string) =>
  queryOptions({
    queryKey: personaKeys.detail(id),
    queryFn: ({ signal }) => api.get<Persona>(path(id), undefined, signal),
  });

/** After any change: lists are read again, the changed persona is seeded. */
function changed(queryClient: QueryClient, persona?: Persona) {
  if (persona) queryClient.setQueryData(personaKeys.detail(persona.id), persona);
  void queryClient.invalidateQueries({ queryKey: [...root, "list"] });
}

export async function createPersona(queryClient: QueryClient, body: z.input<typeof personaCreate>) {
  const persona = await api.post<Persona>("/api/personas", body);
  changed(queryClient, persona);
  return persona;
}

export async function updatePersona(
  queryClient: QueryClient,
  id: string,
  body: z.input<typeof personaUpdate>,
) {
  const persona = await api.patch<Persona>(path(id), body);
  changed(queryClient, persona);
  return persona;
}

export async function deletePersona(queryClient: QueryClient, id: string) {
  await api.delete<void>(path(id));
  queryClient.removeQueries({ queryKey: personaKeys.detail(id) });
  changed(queryClient);
}

export async function setDefaultPersona(queryClient: QueryClient, id: string) {
  const persona = await api.post<Persona>(`${path(id)}/default`);
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
  const persona = await uploadFile<Persona>(`${path(id)}/avatar`, file, onProgress);
  changed(queryClient, persona);
  return persona;
}

export async function removePersonaAvatar(queryClient: QueryClient, id: string) {
  const persona = await api.delete<Persona>(`${path(id)}/avatar`);
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
