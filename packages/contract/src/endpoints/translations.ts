import { endpoint, idParams } from "../endpoint.ts";
import {
  characterTranslation,
  characterTranslationBody,
  characterTranslationList,
  translationParams,
} from "../translations.ts";

/** A creator's translations of a bot (apps/server/src/features/characters/translations.ts). */
export const translationEndpoints = {
  list: endpoint({
    method: "GET",
    path: "/api/characters/{id}/translations",
    summary: "The bot's translations (its creator or an admin)",
    tag: "Characters",
    access: "creator",
    params: idParams,
    response: characterTranslationList,
  }),
  put: endpoint({
    method: "PUT",
    path: "/api/characters/{id}/translations/{language}",
    summary:
      "Add or replace the bot's translation into one language (name, title, greeting, persona, scenario, dialogue; null keeps the original)",
    tag: "Characters",
    access: "creator",
    params: translationParams,
    body: characterTranslationBody,
    response: characterTranslation,
  }),
  remove: endpoint({
    method: "DELETE",
    path: "/api/characters/{id}/translations/{language}",
    summary: "Delete the bot's translation into one language",
    tag: "Characters",
    access: "creator",
    params: translationParams,
    response: null,
  }),
};
