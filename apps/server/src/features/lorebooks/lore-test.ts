import type { LorebookBody, LoreTestResult } from "@hearth/contract";
import { activateLore, invalidKeys } from "./activation.ts";
import { fromLorebookBody } from "./wire.ts";

/**
 * The editor's test box: which entries this text would activate, with the prompt's rules. The
 * text is split into messages on blank lines (newest last), so scan depth means what it means in
 * a chat. Probability is not rolled: any chance above 0 counts as a hit (the answer shows the
 * chance), so the same text always gives the same answer.
 */
export function testLorebook(
  body: LorebookBody,
  text: string,
  countTokens: (text: string) => number,
): LoreTestResult {
  const book = fromLorebookBody(body);
  const messages = text
    .split(/\n\s*\n/)
    .map((m) => m.trim())
    .filter(Boolean);
  const activation = activateLore(book, messages, { countTokens, random: () => 0 });
  const byId = new Map(body.entries.map((e) => [e.id, e]));
  return {
    activated: activation.entries.map((e) => ({
      id: e.id,
      name: e.name,
      position: e.position,
      reason: e.via,
      matched_key: e.via === "key" ? e.reason : null,
      tokens: e.tokens,
      probability: byId.get(e.id)?.probability ?? 100,
    })),
    over_budget: activation.overBudget.map((id) => ({ id, name: byId.get(id)?.name ?? "" })),
    invalid_keys: book.entries.flatMap((entry) => invalidKeys(entry).map((key) => ({ id: entry.id, key }))),
    tokens: activation.tokens,
  };
}
