import { open } from "node:fs/promises";
import { PassThrough } from "node:stream";
import type { AccountImportReport } from "@hearth/contract";
import type { PersonaLimits } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Viewer } from "../accounts/index.ts";
import type { CharacterService } from "../characters/index.ts";
import type { ChatTransferService } from "../chat-transfer/index.ts";
import { ArchiveWriter, fileSource } from "./archive.ts";
import { exportAccount } from "./export.ts";
import { importAccount } from "./import.ts";

export interface AccountTransferDeps {
  db: Db;
  storage: FileStorage;
  characters: CharacterService;
  chats: ChatTransferService;
  personaLimits: PersonaLimits;
  highlightsMax: number;
  /** The model registry's answer to "may this member choose this model" (the default-model setting's rule). */
  models: { mayChoose(viewer: Viewer, modelId: string): boolean };
  /** Hearth's version, for the manifest. */
  version: string;
}

/** Whole-account export and import (issue 19 item 4). Permission checks are the routes' (policy.ts). */
export class AccountTransferService {
  constructor(private deps: AccountTransferDeps) {}

  /**
   * The archive as a stream, written as it is read. A failure part-way (storage or database gone)
   * ends the stream with that error, so the download fails rather than stopping short unnoticed.
   */
  export(viewer: Viewer, onError: (error: unknown) => void): PassThrough {
    const out = new PassThrough();
    exportAccount(this.deps, viewer, new ArchiveWriter(out)).catch((error: unknown) => {
      onError(error);
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    return out;
  }

  /** Imports an archive saved at `file` (read by seeking, never whole). */
  async import(viewer: Viewer, file: string): Promise<AccountImportReport> {
    const handle = await open(file, "r");
    try {
      return await importAccount(this.deps, viewer, fileSource(handle, (await handle.stat()).size));
    } finally {
      await handle.close();
    }
  }
}
