import type { CharacterCreate, ImportReport } from "@hearth/contract";
import type { CardSource } from "./source.ts";

/**
 * The seam between character-card files (Tavern V1/V2/V3 in PNG, JSON or CharX) and the
 * characters feature. The card modules know file formats; the characters feature knows storage.
 */

/** An image that came inside a card file (the PNG itself, or an asset of a CharX archive). */
export interface CardImage {
  data: Buffer;
  /** As declared or sniffed: image/png, image/jpeg, image/webp, ... */
  mimeType: string;
}

/** What a card file holds, in Hearth's terms. */
export interface ParsedCard {
  /** Ready for the characters service (it validates again with the contract's schema). */
  fields: CharacterCreate;
  /** The card's character_book (lorebook), kept as written for the lorebook feature. */
  characterBook: unknown | null;
  /** Unknown `extensions` of the card, kept so they survive a round trip. */
  extensions: Record<string, unknown>;
  /** The main image: the card PNG itself, or a CharX icon asset. */
  avatar: CardImage | null;
  /** The original art to store and export: the card PNG without its card text, or the CharX icon. */
  art: Buffer | null;
  /** A CharX file as uploaded, kept so an export as CharX carries its assets again. */
  archive: Buffer | null;
  /** The card as written (source.ts); stored so an export gives back what Hearth did not change. */
  source: CardSource;
  report: ImportReport;
}

/** What the characters feature hands over to write a card file. */
export interface ExportableCharacter {
  /** The definition's fields; its lorebook is `characterBook`, as stored. */
  fields: Required<Omit<CharacterCreate, "character_book">>;
  characterBook: unknown | null;
  extensions: Record<string, unknown>;
  creatorUsername: string | null;
  /** The avatar's square crop (Hearth stores WebP): the picture of bots that have no stored art. */
  avatar: CardImage | null;
  /** The original art (an imported card's image, an uploaded avatar as uploaded); exported as is. */
  art: CardImage | null;
  /** The imported card, with its CharX archive's bytes; null for a bot made in Hearth. */
  source: (CardSource & { archive: Buffer | null }) | null;
  createdAt: Date;
  updatedAt: Date;
}

export type ExportFormat = "png" | "json" | "charx";

export interface ExportedCard {
  body: Buffer;
  contentType: string;
  /** A safe file name, e.g. "Mira.png". */
  filename: string;
}

/** A file that cannot be imported: the message is shown to the person as is. */
export class CardError extends Error {
  constructor(
    message: string,
    /** 400 for a bad file, 413 when it is too large, 415 for a format that is not a card at all. */
    readonly status: 400 | 413 | 415 = 400,
  ) {
    super(message);
  }
}

/** The card modules' entry points (implemented in ./parse.ts and ./export.ts). */
export type ParseCard = (file: Buffer, filename: string) => Promise<ParsedCard>;
export type ExportCard = (character: ExportableCharacter, format: ExportFormat) => Promise<ExportedCard>;
