import type {
  CharacterModerationUpdate,
  characterCreate,
  characterUpdate,
  ModerationStatus,
} from "@hearth/contract";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { avatarFileKey, deleteAvatarFiles, storeAvatar } from "../../lib/avatars.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Viewer } from "../accounts/index.ts";
import type { ExportableCharacter } from "./cards/types.ts";
import { statusOnCreate, statusOnCreatorEdit } from "./moderation.ts";
import { assertCanChat, invalidAccess, isCreator, type MaybeViewer } from "./policy.ts";
import {
  type FoundCharacter,
  findCharacter,
  findLiveCharacter,
  insertCharacter,
  softDeleteCharacter,
  updateCharacter,
} from "./queries.ts";
import type { CharacterRow, NewCharacterRow } from "./schema.ts";
import { promptText, type TokenCounter } from "./tokens.ts";

export type CharacterFields = z.output<typeof characterCreate>;
export type CharacterChange = z.output<typeof characterUpdate>;

export interface CharactersDeps {
  db: Db;
  storage: FileStorage;
  countTokens: TokenCounter;
  /** HEARTH_REVIEW_PUBLIC_BOTS */
  reviewPublicBots: boolean;
}

/** What an import or the seed adds beyond the editable fields. */
export interface CreateExtras {
  characterBook?: unknown | null;
  extensions?: Record<string, unknown>;
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
  set("scenario", f.scenario);
  set("dialogue", f.dialogue);
  set("systemPrompt", f.system_prompt);
  set("postHistoryInstructions", f.post_history_instructions);
  set("creatorNotes", f.creator_notes);
  // Tags are kept once each, in the order given.
  set("tags", f.tags && [...new Set(f.tags)]);
  set("avatarIsNsfw", f.avatar_is_nsfw);
  set("definitionVisible", f.definition_visible);
  set("visibility", f.visibility);
  set("language", f.language);
  set("isNsfw", f.is_nsfw);
  return out;
}

const PROMPT_COLUMNS = ["persona", "scenario", "dialogue", "greeting", "systemPrompt"] as const;

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
    return insertCharacter(this.deps.db, {
      ...columns,
      creatorUserId: creatorId,
      tokenCount: await this.deps.countTokens(promptText(columns as Required<NewCharacterRow>)),
      moderationStatus:
        extras.moderationStatus ?? statusOnCreate(fields.visibility, this.deps.reviewPublicBots),
      characterBook: extras.characterBook ?? null,
      extensions: extras.extensions ?? {},
    });
  }

  /** Applies only the given fields. A creator's edit sends a public bot back to review. */
  async update(viewer: MaybeViewer, row: CharacterRow, change: CharacterChange): Promise<CharacterRow> {
    const columns = toColumns(change);
    const merged = { ...row, ...columns };
    if (PROMPT_COLUMNS.some((k) => columns[k] !== undefined && columns[k] !== row[k])) {
      columns.tokenCount = await this.deps.countTokens(promptText(merged));
    }
    // A moderator editing someone's bot does not change its review state.
    if (isCreator(viewer, row)) {
      columns.moderationStatus = statusOnCreatorEdit(
        row.moderationStatus,
        merged.visibility,
        this.deps.reviewPublicBots,
      );
    }
    return this.save(row.id, columns);
  }

  async delete(row: CharacterRow): Promise<void> {
    await softDeleteCharacter(this.deps.db, row.id);
    await deleteAvatarFiles(this.deps.storage, row.avatarKey);
  }

  /** Stores a new avatar (checked, re-encoded) and then removes the old files. */
  async setAvatar(
    viewer: MaybeViewer,
    row: CharacterRow,
    image: Buffer,
    maxBytes?: number,
  ): Promise<CharacterRow> {
    const key = await storeAvatar(this.deps.storage, `avatars/${row.id}`, image, maxBytes);
    const columns: Partial<NewCharacterRow> = { avatarKey: key };
    // A first avatar completes a new bot; replacing one is an edit like any other.
    if (isCreator(viewer, row) && row.avatarKey) {
      columns.moderationStatus = statusOnCreatorEdit(
        row.moderationStatus,
        row.visibility,
        this.deps.reviewPublicBots,
      );
    }
    const updated = await this.save(row.id, columns);
    await deleteAvatarFiles(this.deps.storage, row.avatarKey);
    return updated;
  }

  async removeAvatar(row: CharacterRow): Promise<CharacterRow> {
    const updated = await this.save(row.id, { avatarKey: null });
    await deleteAvatarFiles(this.deps.storage, row.avatarKey);
    return updated;
  }

  /** A moderator's decision; reasons and the action text are replaced only when given. */
  moderate(row: CharacterRow, decision: CharacterModerationUpdate): Promise<CharacterRow> {
    return this.save(row.id, {
      moderationStatus: decision.moderation_status,
      ...(decision.reason_for_moderation !== undefined && {
        reasonForModeration: decision.reason_for_moderation,
      }),
      ...(decision.action_taken_description !== undefined && {
        actionTakenDescription: decision.action_taken_description,
      }),
    });
  }

  /** What the card writer needs: every field, the kept card data, and the avatar bytes. */
  async exportable(found: FoundCharacter): Promise<ExportableCharacter> {
    const r = found.character;
    const avatar = r.avatarKey ? await this.deps.storage.get(avatarFileKey(r.avatarKey, "large")) : null;
    return {
      fields: {
        name: r.name,
        title: r.title,
        greeting: r.greeting,
        persona: r.persona,
        scenario: r.scenario,
        dialogue: r.dialogue,
        tags: r.tags,
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
      avatar: avatar ? { data: avatar.body, mimeType: avatar.contentType } : null,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }

  private async save(id: string, columns: Partial<NewCharacterRow>): Promise<CharacterRow> {
    const row = await updateCharacter(this.deps.db, id, columns);
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
