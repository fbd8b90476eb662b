/**
 * What of a message is spoken, and in which pieces. Listen speaks the words, not the markup:
 * Markdown emphasis, code marks, links' addresses and headings' hashes are dropped. Narration in
 * *asterisks* is spoken as plain words, or left out when the member asks (`skipActions`).
 * The text is then cut into pieces at sentence ends, the first piece one sentence (so the first
 * audio is ready soon), the second a few up to half of `PIECE_CHARS` (ready before the first has
 * been heard), the later ones up to `PIECE_CHARS`, so requests to the speech backend stay few.
 */

/** A later piece gathers sentences up to about this many characters (the second up to half). */
export const PIECE_CHARS = 220;
/** A sentence longer than this is cut at a comma or a space. */
const MAX_SENTENCE = 300;

export function spokenText(content: string, opts: { skipActions: boolean }): string {
  let text = content.replace(/\r\n?/g, "\n");
  // Code blocks are not read aloud.
  text = text.replace(/```[\s\S]*?(```|$)/g, " ");
  // Links and images: their words, never the address.
  text = text.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1");
  text = text.replace(/https?:\/\/\S+/g, " ");
  if (opts.skipActions) {
    // *narration* left out (**bold** is emphasis, kept); an unclosed one runs to the line's end.
    text = text.replace(/(?<!\*)\*(?!\*)[^*\n]*(\*(?!\*)|$)/gm, " ");
  }
  text = text
    .replace(/^\s{0,3}#{1,6}\s+/gm, "")
    .replace(/^\s*>\s?/gm, "")
    .replace(/^\s*[-+]\s+/gm, "")
    .replace(/[*_~`]+/g, "")
    .replace(/<[^>]{0,200}>/g, " ");
  return text
    .replace(/[ \t\f\v]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
}

/** Sentences, each with its closing punctuation; blank lines and line ends also end one. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  const re = /[^.!?…\n]+(?:[.!?…]+["'”’)\]]*|\n|$)/g;
  for (const m of text.matchAll(re)) {
    const s = m[0].replace(/\s+/g, " ").trim();
    if (!/[\p{L}\p{N}]/u.test(s)) {
      // Punctuation alone ("...") belongs to the sentence before it.
      if (s && out.length) out[out.length - 1] += s;
      continue;
    }
    out.push(...cutLong(s));
  }
  return out;
}

function cutLong(sentence: string): string[] {
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > MAX_SENTENCE) {
    const window = rest.slice(0, MAX_SENTENCE);
    const at = Math.max(window.lastIndexOf(", "), window.lastIndexOf("; "), window.lastIndexOf(": "));
    const cut =
      at > MAX_SENTENCE / 3 ? at + 1 : window.lastIndexOf(" ") > 0 ? window.lastIndexOf(" ") : MAX_SENTENCE;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/** The pieces Listen asks the backend for, in order: the first alone, then sentences gathered. */
export function speechPieces(text: string): string[] {
  const all = sentences(text);
  const pieces: string[] = [];
  for (const [i, s] of all.entries()) {
    const last = pieces[pieces.length - 1];
    const room = pieces.length === 2 ? PIECE_CHARS / 2 : PIECE_CHARS;
    if (i > 1 && last !== undefined && last.length + 1 + s.length <= room) {
      pieces[pieces.length - 1] = `${last} ${s}`;
    } else {
      pieces.push(s);
    }
  }
  return pieces;
}
