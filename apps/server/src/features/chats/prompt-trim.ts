/**
 * Text trimming for prompt budgets: cut a text to a token budget on sentence boundaries, cut
 * example dialogues on line boundaries, and share a budget out between sections by weight.
 */

export type CountTokens = (text: string) => number;

/** Sentences and paragraph lines, each with the whitespace that followed it. */
function sentences(text: string): string[] {
  return text.match(/[^.!?…\n]*(?:[.!?…]+["'”’)\]*_]*|\n+|$)\s*/g)?.filter((s) => s.length > 0) ?? [];
}

/**
 * The longest prefix of `units` (joined) that fits `budget` tokens, found by binary search so a
 * long text costs a few token counts, not one per unit.
 */
function longestFittingPrefix(units: string[], budget: number, count: CountTokens): number {
  let lo = 0;
  let hi = units.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(units.slice(0, mid).join("").trim()) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Cuts `text` to at most `budget` tokens: whole sentences from the start; when not even the first
 * sentence fits, whole words of it. Returns "" when nothing fits.
 */
export function cutToTokens(text: string, budget: number, count: CountTokens): string {
  const trimmed = text.trim();
  if (budget <= 0 || !trimmed) return "";
  if (count(trimmed) <= budget) return trimmed;
  const parts = sentences(trimmed);
  const kept = longestFittingPrefix(parts, budget, count);
  if (kept > 0) return parts.slice(0, kept).join("").trim();
  const words = (parts[0] ?? trimmed).split(/(?<=\s)/);
  return words
    .slice(0, longestFittingPrefix(words, budget, count))
    .join("")
    .trim();
}

/**
 * Cuts example dialogue to whole lines from the start within `budget`, and only at the end of an
 * exchange (a line spoken by the character, not the user), so no example stops mid-conversation.
 */
export function cutDialogueLines(
  text: string,
  budget: number,
  count: CountTokens,
  isCharacterLine: (line: string) => boolean,
): string {
  const trimmed = text.trim();
  if (budget <= 0 || !trimmed) return "";
  if (count(trimmed) <= budget) return trimmed;
  const lines = trimmed.split(/(?<=\n)/);
  let kept = longestFittingPrefix(lines, budget, count);
  while (kept > 0 && !isCharacterLine((lines[kept - 1] ?? "").trim())) kept--;
  return lines.slice(0, kept).join("").trim();
}

export interface BudgetClaim {
  /** Tokens the section would take in full. */
  need: number;
  /** Its share relative to the other sections when there is not enough for all. */
  weight: number;
}

/**
 * Shares `budget` between sections by weight; a section that needs less than its share keeps
 * what it needs and the rest is shared again among the others (water filling).
 */
export function shareBudget(claims: BudgetClaim[], budget: number): number[] {
  const grant = claims.map(() => 0);
  let open = claims.map((_, i) => i).filter((i) => (claims[i] as BudgetClaim).need > 0);
  let left = Math.max(0, budget);
  while (open.length > 0) {
    const weights = open.reduce((sum, i) => sum + (claims[i] as BudgetClaim).weight, 0);
    const satisfied = open.filter(
      (i) => (claims[i] as BudgetClaim).need <= (left * (claims[i] as BudgetClaim).weight) / weights,
    );
    if (satisfied.length === 0) {
      for (const i of open) grant[i] = Math.floor((left * (claims[i] as BudgetClaim).weight) / weights);
      break;
    }
    for (const i of satisfied) {
      grant[i] = (claims[i] as BudgetClaim).need;
      left -= grant[i] as number;
    }
    open = open.filter((i) => !satisfied.includes(i));
  }
  return grant;
}
