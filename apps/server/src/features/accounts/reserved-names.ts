/**
 * Usernames nobody may hold: Hearth's own accounts, staff-sounding names, words software treats
 * specially, and the site's brand. A name is compared by its skeleton (what it looks like), so
 * `Deleted_User`, `deleted-user`, `de1eted_user`, `ＡＤＭＩＮ` and `аdmin` with a Cyrillic `а` are all
 * the reserved name they imitate.
 */

export const USERNAME_RESERVED = "This username is reserved. Please choose another one.";

const RESERVED_USERNAMES = [
  "deleted_user",
  "admin",
  "administrator",
  "hearth",
  "moderator",
  "mod",
  "support",
  "system",
  "root",
  "staff",
  "official",
  "null",
  "undefined",
  "anonymous",
  "guest",
];

/**
 * Letters and digits that pass for a Latin letter, each mapped to one letter of its look-alike
 * group (`0`, `о`, `ο` and `o` all become `o`; `1`, `i`, `l`, `|` all become `l`). Applied after
 * lowercasing, so capitals that look Latin (Cyrillic `В`, Greek `Η`) arrive as their small forms.
 */
const LOOK_ALIKES: Record<string, string> = {
  // Digits and symbols used as letters.
  "0": "o",
  "1": "l",
  "!": "l",
  "|": "l",
  "3": "e",
  "4": "a",
  "@": "a",
  "5": "s",
  $: "s",
  "7": "t",
  "8": "b",
  "9": "g",
  // Latin letters that look like another.
  i: "l",
  ı: "l",
  // Cyrillic.
  а: "a",
  в: "b",
  е: "e",
  һ: "h",
  н: "h",
  і: "l",
  ӏ: "l",
  ј: "j",
  к: "k",
  м: "m",
  о: "o",
  р: "p",
  с: "c",
  ѕ: "s",
  т: "t",
  у: "y",
  х: "x",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  // Greek.
  α: "a",
  β: "b",
  ε: "e",
  η: "n",
  ι: "l",
  κ: "k",
  μ: "u",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
};

/** Letter pairs that read as one letter at a glance. */
const LOOK_ALIKE_PAIRS: [RegExp, string][] = [
  [/rn/g, "m"],
  [/vv/g, "w"],
];

/** Separators, invisible format characters and combining marks: a skeleton ignores them. */
const IGNORED = /[\s_.\-\p{Cf}\p{M}]/gu;

/** What a name looks like: case folded, NFKC, marks and separators gone, look-alikes merged. */
export function nameSkeleton(name: string): string {
  const folded = name.normalize("NFKC").toLowerCase().normalize("NFD").replace(IGNORED, "");
  let out = Array.from(folded, (c) => LOOK_ALIKES[c] ?? c).join("");
  for (const [pair, letter] of LOOK_ALIKE_PAIRS) out = out.replace(pair, letter);
  return out;
}

const RESERVED_SKELETONS = new Set(RESERVED_USERNAMES.map(nameSkeleton));

/** Whether a username (as typed or as stored) imitates a reserved name or the site's brand. */
export function isReservedUsername(name: string, brand: string): boolean {
  const skeleton = nameSkeleton(name);
  return RESERVED_SKELETONS.has(skeleton) || (skeleton !== "" && skeleton === nameSkeleton(brand));
}
