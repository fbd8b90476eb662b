// What other features use of personas: the persona a prompt speaks for, reading one persona,
// and the API mapper. The routes register from app.ts.
export { PERSONA_NOT_FOUND_MESSAGE, personaNotFound } from "./policy.ts";
export { toPersona } from "./present.ts";
export { FALLBACK_USER_NAME, type PromptPersona, resolvePersonaForPrompt } from "./prompt.ts";
export { findPersona } from "./queries.ts";
export { personaRoutes } from "./routes.ts";
export type { PersonaRow } from "./schema.ts";
export { PersonaService } from "./service.ts";
