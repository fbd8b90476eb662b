import { DEFAULT_PERSONA_DELETE_MESSAGE, type personaCreate, type personaUpdate } from "@hearth/contract";
import type { z } from "zod";
import type { PersonaLimits } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { deleteAvatarFiles, storeAvatar } from "../../lib/avatars.ts";
import type { FileStorage } from "../../ports/storage.ts";
import { lockAccount, type Viewer } from "../accounts/index.ts";
import { assertMayCreatePersona, personaNameTaken, personaNotFound } from "./policy.ts";
import {
  clearDefault,
  deleteNonDefaultPersona,
  findPersona,
  findPersonaForUpdate,
  insertPersona,
  isUniqueViolation,
  listPersonas,
  nameTaken,
  personaStats,
  updatePersona,
} from "./queries.ts";
import type { PersonaRow } from "./schema.ts";

export type PersonaFields = z.output<typeof personaCreate>;
export type PersonaChange = z.output<typeof personaUpdate>;

export interface PersonasDeps {
  db: Db;
  storage: FileStorage;
  /** HEARTH_PERSONA_LIMITS */
  limits: PersonaLimits;
}

/** Transactions get the same query helpers as the database itself. */
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
const asDb = (tx: Tx) => tx as unknown as Db;

/**
 * Persona writes. Each one locks its owner's row first, so the limit count, the name check and
 * the default switch see no concurrent change: a user always has at most one default, and
 * exactly one once they have any persona. Permission checks are the caller's (policy.ts).
 */
export class PersonaService {
  constructor(private deps: PersonasDeps) {}

  list(userId: string, q?: string): Promise<PersonaRow[]> {
    return listPersonas(this.deps.db, userId, q);
  }

  /** The user's persona, or 404 `persona_not_found`. */
  async get(userId: string, id: string): Promise<PersonaRow> {
    const row = await findPersona(this.deps.db, userId, id);
    if (!row) throw personaNotFound();
    return row;
  }

  /** Creates a persona within the viewer's limit; their first one (or the first while none is the default) becomes the default. */
  create(viewer: Viewer, fields: PersonaFields): Promise<PersonaRow> {
    return this.write(viewer.id, fields.name, async (tx) => {
      const { count, hasDefault } = await personaStats(tx, viewer.id);
      assertMayCreatePersona(viewer, count, this.deps.limits);
      if (await nameTaken(tx, viewer.id, fields.name)) throw personaNameTaken(fields.name);
      return insertPersona(tx, {
        userId: viewer.id,
        name: fields.name,
        highlights: fields.highlights,
        isDefault: !hasDefault,
      });
    });
  }

  /** Applies only the given fields. */
  update(userId: string, id: string, change: PersonaChange): Promise<PersonaRow> {
    return this.write(userId, change.name, async (tx) => {
      if (change.name !== undefined && (await nameTaken(tx, userId, change.name, id))) {
        throw personaNameTaken(change.name);
      }
      const row = await updatePersona(tx, userId, id, {
        ...(change.name !== undefined && { name: change.name }),
        ...(change.highlights !== undefined && { highlights: change.highlights }),
      });
      if (!row) throw personaNotFound();
      return row;
    });
  }

  /** Makes the persona the default, unsetting the old one in the same transaction. */
  setDefault(userId: string, id: string): Promise<PersonaRow> {
    return this.write(userId, undefined, async (tx) => {
      const current = await findPersona(tx, userId, id);
      if (!current) throw personaNotFound();
      if (current.isDefault) return current;
      await clearDefault(tx, userId);
      const row = await updatePersona(tx, userId, id, { isDefault: true });
      if (!row) throw personaNotFound();
      return row;
    });
  }

  /** Deletes a persona that is not the default, then its avatar files. */
  async delete(userId: string, id: string): Promise<void> {
    const deleted = await this.write(userId, undefined, async (tx) => {
      const row = await deleteNonDefaultPersona(tx, userId, id);
      if (row) return row;
      if (await findPersona(tx, userId, id)) {
        throw new HttpError(409, "conflict", DEFAULT_PERSONA_DELETE_MESSAGE, {
          errorType: "default_persona_delete",
        });
      }
      throw personaNotFound();
    });
    await deleteAvatarFiles(this.deps.storage, deleted.avatarKey);
  }

  /**
   * Stores a new avatar (checked and re-encoded like character avatars), then removes the old
   * files. If the persona is gone by the time the key is saved, the new files go too (404).
   */
  async setAvatar(userId: string, id: string, image: Buffer, maxBytes?: number): Promise<PersonaRow> {
    const key = await storeAvatar(this.deps.storage, `personas/${id}`, image, maxBytes);
    try {
      return await this.swapAvatar(userId, id, key);
    } catch (error) {
      await deleteAvatarFiles(this.deps.storage, key);
      throw error;
    }
  }

  removeAvatar(userId: string, id: string): Promise<PersonaRow> {
    return this.swapAvatar(userId, id, null);
  }

  private async swapAvatar(userId: string, id: string, key: string | null): Promise<PersonaRow> {
    const { row, oldKey } = await this.deps.db.transaction(async (t) => {
      const tx = asDb(t);
      const before = await findPersonaForUpdate(tx, userId, id);
      if (!before) throw personaNotFound();
      const row = await updatePersona(tx, userId, id, { avatarKey: key });
      if (!row) throw personaNotFound();
      return { row, oldKey: before.avatarKey };
    });
    await deleteAvatarFiles(this.deps.storage, oldKey);
    return row;
  }

  /**
   * Runs `work` in a transaction holding the owner's lock. A name clash that slipped past the
   * check (it cannot while every writer locks, but the index is the last word) is still a 409.
   */
  private async write<T>(userId: string, name: string | undefined, work: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await this.deps.db.transaction(async (t) => {
        const tx = asDb(t);
        // One user's persona writes (count then insert, unset then set the default) run one at a time.
        if (!(await lockAccount(tx, userId))) throw personaNotFound();
        return work(tx);
      });
    } catch (error) {
      if (name !== undefined && isUniqueViolation(error, "personas_user_name_key")) {
        throw personaNameTaken(name);
      }
      throw error;
    }
  }
}
