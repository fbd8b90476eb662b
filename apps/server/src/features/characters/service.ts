import { randomBytes } from "node:crypto";
import type { characterCreate, characterUpdate, ModerationStatus } from "@hearth/contract";
import { and, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { avatarFileKey, deleteAvatarFiles, storeAvatar } from "../../lib/avatars.ts";
import { sniffImageType } from "../../lib/image-type.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Viewer } from "../accounts/index.ts";
import { toCharacterBook } from "../lorebooks/index.ts";
import { readCardData, readCardPointer } from "./cards/source.ts";
import type { ExportableCharacter } from "./cards/types.ts";
import { awaitsReview, statusOnCreate, statusOnCreatorEdit } from "./moderation.ts";
import { assertCanChat, invalidAccess, isCreator, type MaybeViewer } from "./policy.ts";
import { displayTags } from "./present.ts";
import {
  type FoundCharacter,
  findCharacter,
  findLiveCharacter,
  insertCharacter,
  softDeleteCharacter,
  updateCharacter,
} from "./queries.ts";
import { type CharacterRow, characters, type NewCharacterRow } from "./schema.ts";
import { promptText, type TokenCounter } from "./tokens.ts";

export type CharacterFields = z.output<typeof characterCreate>;
export type CharacterChange = z.output<typeof characterUpdate>;

export interface CharactersDeps {
  db: Db;
  storage: FileStorage;
  countTokens: TokenCounter;
  /** HEARTH_REVIEW_PUBLIC_BOTS */
  reviewPublicBots: boolean;
  /**
   * The moderators' queue (the moderation feature implements it; characters does not import it).
   * Absent in tools without one (the import CLI, which only makes private bots).
   */
  moderation?: ModerationHooks;
}

/** An administrator's action for the audit log: the changed fields before and after. */
export interface AdminAction {
  actorUserId: string;
  action: string;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** What characters asks of moderation, always inside the transaction of the change itself. */
export interface ModerationHooks {
  /** A bot started waiting for a moderator: open its review unless one is open (one per bot). */
  botAwaitsReview(tx: Db, characterId: string, kind: "new_bot" | "edited_bot"): Promise<void>;
  /** An administrator changed someone else's bot (the editor): one audit log row. */
  recordAdminAction(tx: Db, action: AdminAction): Promise<void>;
}

/** The columns a moderator changes (the review table's actions, approve and send back, reports). */
export type ModeratorChange = Partial<
  Pick<
    NewCharacterRow,
    | "visibility"
    | "isNsfw"
    | "isUnderage"
    | "moderationStatus"
    | "reasonForModeration"
    | "actionTakenDescription"
    | "reportsType"
  >
>;

/** What an import or the seed adds beyond the editable fields. */
export interface CreateExtras {
  characterBook?: unknown | null;
  extensions?: Record<string, unknown>;
  /** An imported card as written (cards/source.ts), so its export writes back what was kept. */
  cardSource?: string | null;
  /** The seed's demo bots are approved from the start. */
  moderationStatus?: ModerationStatus;
}

/** Contract field names → columns, for the fields present in `f`. */
function toColumns(f: Partial<CharacterFields>): Partial<NewCharacterRow> {
  const out: Partial<NewCharacterRow> = {};
  const set = <K extends keyof NewCharacterRow>(key: K, value: NewCharacterRow[K] | undefined) => {
    if (value !== undefined) out[key] = value;
  };
  set("name", f.name);
  set("title", f.title);
  set("greeting", f.greeting);
  set("alternateGreetings", f.alternate_greetings);
  set("persona", f.persona);
  set("personality", f.personality);
  set("scenario", f.scenario);
  set("dialogue", f.dialogue);
  set("systemPrompt", f.system_prompt);
  set("postHistoryInstructions", f.post_history_instructions);
  set("creatorNotes", f.creator_notes);
  // Tags are kept once each (compared without case), in the order given: as written for display,
  // lower-cased for search and filters.
  if (f.tags) {
    const labels = tagLabels(f.tags);
    out.tagLabels = labels;
    out.tags = labels.map((t) => t.toLowerCase());
  }
  set("avatarIsNsfw", f.avatar_is_nsfw);
  set("definitionVisible", f.definition_visible);
  set("visibility", f.visibility);
  set("language", f.language);
  set("isNsfw", f.is_nsfw);
  // Kept as a card's character_book, as an imported card's is, so card export writes it as is.
  if (f.character_book !== undefined) {
    out.characterBook = f.character_book === null ? null : toCharacterBook(f.character_book);
  }
  return out;
}

/** Tags once each, the first spelling of a tag winning ("White Hair", "white hair" → "White Hair"). */
export function tagLabels(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((t) => {
    const key = t.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const PROMPT_COLUMNS = [
  "persona",
  "personality",
  "scenario",
  "dialogue",
  "greeting",
  "systemPrompt",
] as const;

/**
 * Character writes: moderation state, token counts and avatar files follow every change here,
 * whether it comes from the API, an imported card or the seed. Permission checks are the
 * caller's (policy.ts), before calling.
 */
export class CharacterService {
  constructor(private deps: CharactersDeps) {}

  find(id: string, viewerId: string | null = null): Promise<FoundCharacter | null> {
    return findCharacter(this.deps.db, id, viewerId);
  }

  async create(creatorId: string, fields: CharacterFields, extras: CreateExtras = {}): Promise<CharacterRow> {
    const columns = toColumns(fields) as NewCharacterRow;
    const values: NewCharacterRow = {
      ...columns,
      creatorUserId: creatorId,
      tokenCount: await this.deps.countTokens(promptText(columns as Required<NewCharacterRow>)),
      moderationStatus:
        extras.moderationStatus ?? statusOnCreate(fields.visibility, this.deps.reviewPublicBots),
      // An imported card's book as the card had it; else the one the editor sent.
      characterBook: extras.characterBook ?? columns.characterBook ?? null,
      extensions: extras.extensions ?? {},
      cardSource: extras.cardSource ?? null,
    };
    const reviews = this.deps.moderation;
    if (!reviews || !awaitsReview(values.moderationStatus ?? "approved")) {
      return insertCharacter(this.deps.db, values);
    }
    // The bot and its review appear together: no pending bot without a review to clear it.
    return this.deps.db.transaction(async (tx) => {
      const row = await insertCharacter(tx as unknown as Db, values);
      await reviews.botAwaitsReview(tx as unknown as Db, row.id, "new_bot");
      return row;
    });
  }

  /** Applies only the given fields. A creator's edit sends a public bot back to review. */
  async update(viewer: MaybeViewer, row: CharacterRow, change: CharacterChange): Promise<CharacterRow> {
    const columns = toColumns(change);
    const merged = { ...row, ...columns };
    if (PROMPT_COLUMNS.some((k) => columns[k] !== undefined && columns[k] !== row[k])) {
      columns.tokenCount = await this.deps.countTokens(promptText(merged));
    }
    // A moderator editing someone's bot does not change its review state; it is audited instead.
    if (isCreator(viewer, row)) {
      columns.moderationStatus = statusOnCreatorEdit(
        row.moderationStatus,
        merged.visibility,
        this.deps.reviewPublicBots,
      );
      return this.save(row.id, columns);
    }
    const hooks = this.deps.moderation;
    if (!hooks || !viewer) return this.save(row.id, columns);
    return this.deps.db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const after = await updateCharacter(tx, row.id, columns);
      if (!after) throw invalidAccess();
      const keys = Object.keys(columns) as (keyof CharacterRow)[];
      const pick = (r: CharacterRow) => Object.fromEntries(keys.map((k) => [k, r[k]]));
      await hooks.recordAdminAction(tx, {
        actorUserId: viewer.id,
        action: "character.edit",
        targetType: "character",
        targetId: row.id,
        before: pick(row),
        after: pick(after),
      });
      return after;
    });
  }

  /** An administrator deleting someone else's bot here (not from the review table) is audited too. */
  async delete(row: CharacterRow, viewer: MaybeViewer = null): Promise<void> {
    const hooks = this.deps.moderation;
    if (hooks && viewer && !isCreator(viewer, row)) {
      await this.deps.db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await softDeleteCharacter(tx, row.id);
        await hooks.recordAdminAction(tx, {
          actorUserId: viewer.id,
          action: "character.delete",
          targetType: "character",
          targetId: row.id,
          before: { deleted: false, name: row.name, visibility: row.visibility },
          after: { deleted: true },
        });
      });
    } else {
      await softDeleteCharacter(this.deps.db, row.id);
    }
    await this.removeFiles(row);
  }

  /**
   * Stores a new avatar (checked, re-encoded into square crops) and its original image, the art a
   * card export carries (`art`, when given, replaces the upload as that original: an imported
   * card's PNG without its card text), then removes the old files.
   */
  async setAvatar(
    viewer: MaybeViewer,
    row: CharacterRow,
    image: Buffer,
    maxBytes?: number,
    art: Buffer = image,
  ): Promise<CharacterRow> {
    const key = await storeAvatar(this.deps.storage, `avatars/${row.id}`, image, maxBytes);
    const artKey = `${key}-art-${randomBytes(8).toString("hex")}`;
    await this.deps.storage.put(artKey, art, `image/${sniffImageType(art) ?? "png"}`);
    const columns: Partial<NewCharacterRow> = { avatarKey: key, artKey };
    // A first avatar completes a new bot; replacing one is an edit like any other.
    if (isCreator(viewer, row) && row.avatarKey) {
      columns.moderationStatus = statusOnCreatorEdit(
        row.moderationStatus,
        row.visibility,
        this.deps.reviewPublicBots,
      );
    }
    const updated = await this.save(row.id, columns);
    await this.removeAvatarFiles(row);
    return updated;
  }

  async removeAvatar(row: CharacterRow): Promise<CharacterRow> {
    const updated = await this.save(row.id, { avatarKey: null, artKey: null });
    await this.removeAvatarFiles(row);
    return updated;
  }

  /**
   * A moderator's change, written in the caller's transaction so the moderation feature can
   * record it (audit log, reviews) in the same one. The row is locked first, so `before` is what
   * the change replaced. `change` may be computed from the row. Null when the bot is gone.
   */
  async moderateIn(
    tx: Db,
    id: string,
    change: ModeratorChange | ((before: CharacterRow) => ModeratorChange),
  ): Promise<{ before: CharacterRow; after: CharacterRow } | null> {
    const before = await this.lockLive(tx, id);
    if (!before) return null;
    const columns = typeof change === "function" ? change(before) : change;
    const after = await updateCharacter(tx, id, columns);
    return after ? { before, after } : null;
  }

  /** A moderator's deletion, in the caller's transaction; `removeFiles` after it commits. */
  async deleteIn(tx: Db, id: string): Promise<CharacterRow | null> {
    const before = await this.lockLive(tx, id);
    if (!before) return null;
    await softDeleteCharacter(tx, id);
    return before;
  }

  /** The files of a bot deleted in a transaction (avatar, art, card archive), once it has committed. */
  async removeFiles(row: CharacterRow): Promise<void> {
    await this.removeAvatarFiles(row);
    const source = readCardPointer(row.cardSource);
    for (const key of [source?.dataKey, source?.archiveKey]) {
      if (key) await this.deps.storage.delete(key).catch(() => undefined);
    }
  }

  /** The avatar's crops and its original art; never failing, like deleteAvatarFiles. */
  private async removeAvatarFiles(row: CharacterRow): Promise<void> {
    await deleteAvatarFiles(this.deps.storage, row.avatarKey);
    if (row.artKey) await this.deps.storage.delete(row.artKey).catch(() => undefined);
  }

  /** Keeps an imported card's data or CharX file, for its export (cards/source.ts); answers its key. */
  async storeCardFile(data: Buffer, kind: "json" | "charx"): Promise<string> {
    const key = `cards/${randomBytes(12).toString("hex")}.${kind}`;
    await this.deps.storage.put(key, data, kind === "json" ? "application/json" : "application/zip");
    return key;
  }

  private async lockLive(tx: Db, id: string): Promise<CharacterRow | null> {
    const [row] = await tx
      .select()
      .from(characters)
      .where(and(eq(characters.id, id), isNull(characters.deletedAt)))
      .for("update")
      .limit(1);
    return row ?? null;
  }

  /** What the card writer needs: every field, the kept card data, the art and avatar bytes. */
  async exportable(found: FoundCharacter): Promise<ExportableCharacter> {
    const r = found.character;
    const { storage } = this.deps;
    const file = async (key: string | null | undefined) => {
      const got = key ? await storage.get(key) : null;
      return got ? { data: got.body, mimeType: got.contentType } : null;
    };
    const pointer = readCardPointer(r.cardSource);
    const data = readCardData((await file(pointer?.dataKey))?.data);
    const archive = await file(pointer?.archiveKey);
    return {
      fields: {
        name: r.name,
        title: r.title,
        greeting: r.greeting,
        persona: r.persona,
        personality: r.personality,
        scenario: r.scenario,
        dialogue: r.dialogue,
        tags: displayTags(r),
        avatar_is_nsfw: r.avatarIsNsfw,
        definition_visible: r.definitionVisible,
        visibility: r.visibility,
        language: r.language,
        is_nsfw: r.isNsfw,
        alternate_greetings: r.alternateGreetings,
        system_prompt: r.systemPrompt,
        post_history_instructions: r.postHistoryInstructions,
        creator_notes: r.creatorNotes,
      },
      characterBook: r.characterBook,
      extensions: r.extensions,
      creatorUsername: found.creatorUsername,
      avatar: await file(r.avatarKey ? avatarFileKey(r.avatarKey, "large") : null),
      art: await file(r.artKey),
      source: pointer && data && { ...pointer, data, archive: archive?.data ?? null },
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }

  /** Writes a change; one that puts the bot in review opens its review in the same transaction. */
  private async save(id: string, columns: Partial<NewCharacterRow>): Promise<CharacterRow> {
    const reviews = this.deps.moderation;
    const status = columns.moderationStatus;
    const row =
      reviews && status && awaitsReview(status)
        ? await this.deps.db.transaction(async (tx) => {
            const updated = await updateCharacter(tx as unknown as Db, id, columns);
            if (updated) await reviews.botAwaitsReview(tx as unknown as Db, id, "edited_bot");
            return updated;
          })
        : await updateCharacter(this.deps.db, id, columns);
    // Deleted between the read and the write: the same answer as any unseen bot.
    if (!row) throw invalidAccess();
    return row;
  }
}

/** A character the viewer may chat with; else 403 restricted, or the spec's invalidAccess error. */
export async function chattableCharacter(db: Db, viewer: Viewer, characterId: string): Promise<CharacterRow> {
  const row = await findLiveCharacter(db, characterId);
  assertCanChat(viewer, row);
  return row;
}
