/**
 * Resolves {{char}} and {{user}} (any case, spaces allowed inside the braces), and the older
 * <BOT>/<USER> forms: the one rule for greetings and prompts, shared by the server and the client.
 */
export function resolveMacros(text: string, charName: string, userName: string): string {
  return text
    .replace(/\{\{\s*char\s*\}\}|<BOT>/gi, charName)
    .replace(/\{\{\s*user\s*\}\}|<USER>/gi, userName);
}

/** Whether the text names the user, so a reader's name has to be known to show it. */
export const mentionsUser = (text: string): boolean => /\{\{\s*user\s*\}\}|<USER>/i.test(text);
