/**
 * SillyTavern's dates in their several forms: epoch numbers, ISO strings, its file-name form
 * (`2023-10-05@14h26m57s`, optionally `390ms`) and its older display form
 * (`October 5, 2023 2:26pm`). Anything else reads as null.
 */
export function readDate(value: unknown): Date | null {
  if (typeof value === "number" && Number.isFinite(value)) {
    return valid(new Date(value < 1e12 ? value * 1000 : value));
  }
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (!text) return null;
  const stamp =
    /^(\d{4})-(\d{1,2})-(\d{1,2})\s*@\s*(\d{1,2})h\s*(\d{1,2})m\s*(\d{1,2})s(?:\s*(\d{1,3})ms)?$/.exec(text);
  if (stamp) {
    const [, y, mo, d, h, mi, s, msec] = stamp.map(Number) as number[];
    return valid(new Date(y as number, (mo as number) - 1, d, h, mi, s, Number.isNaN(msec) ? 0 : msec));
  }
  if (/^\d+$/.test(text)) return readDate(Number(text));
  // "October 5, 2023 2:26pm": the parser wants a space before am/pm.
  const spaced = text.replace(/(\d)(am|pm)$/i, "$1 $2");
  return valid(new Date(spaced));
}

const valid = (date: Date): Date | null => {
  const time = date.getTime();
  // Years 1970 to 9999: a file's nonsense is not a date.
  return Number.isFinite(time) && time >= 0 && time < 253402300800000 ? date : null;
};
