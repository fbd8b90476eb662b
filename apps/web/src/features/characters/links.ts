import { routeEntry } from "../../routes/table.ts";

/** Whether a table route has a screen yet (unbuilt features get no links or buttons). */
export function routeBuilt(path: string): boolean {
  return routeEntry(path)?.screen !== undefined;
}

/** The chat screen arrives with the chat feature; until then Chat Now is disabled. */
export const chatBuilt = () => routeBuilt("/chat/$characterId");
export const reportBuilt = () => routeBuilt("/report/$characterId");

export const chatHref = (id: string) => `/chat/${encodeURIComponent(id)}`;
export const profileHref = (id: string) => `/chatbot/${encodeURIComponent(id)}`;
export const editHref = (id: string) => `/chatbot/edit/${encodeURIComponent(id)}`;

/** Where to go after creating a bot: its chat (spec), or its profile until chat exists. */
export const afterCreateHref = (id: string) => (chatBuilt() ? chatHref(id) : profileHref(id));
