import { type CharacterTranslationBody, characterEndpoints, translationEndpoints } from "@hearth/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";
import { characterKeys } from "../characters/api.ts";

/** A bot's translations (issue 17 item 5): the creator's list and changes, and a translated profile. */
export const translationsQuery = (id: string) =>
  queryOptions({
    queryKey: [...characterKeys.detail(id), "translations"],
    queryFn: ({ signal }) => call(translationEndpoints.list, { params: { id }, signal }),
  });

/**
 * The profile in the language `?language=` in the address names, where the creator translated
 * it (the server answers the original when there is none); undefined without one.
 */
export function profileLanguage(search: string): string | undefined {
  const language = (new URLSearchParams(search).get("language") ?? "").trim().toLowerCase();
  return /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/.test(language) ? language : undefined;
}

/** The profile; without a language under the same cache key as everywhere else (favorites patch it). */
export const translatedProfileQuery = (id: string, language: string | undefined) =>
  queryOptions({
    queryKey: language ? [...characterKeys.detail(id), "language", language] : characterKeys.detail(id),
    queryFn: ({ signal }) =>
      call(characterEndpoints.get, { params: { id }, query: language ? { language } : {}, signal }),
  });

export function useSaveTranslation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ language, body }: { language: string; body: CharacterTranslationBody }) =>
      call(translationEndpoints.put, { params: { id, language }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: characterKeys.detail(id) }),
  });
}

export function useDeleteTranslation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: string) => call(translationEndpoints.remove, { params: { id, language } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: characterKeys.detail(id) }),
  });
}
