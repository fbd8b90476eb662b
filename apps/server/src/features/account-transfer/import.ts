import { createHash } from "node:crypto";
import {
  type AccountImportReport,
  type AccountManifest,
  accountManifest,
  exportedPersona,
  exportedSettings,
  HEARTH_ACCOUNT_FORMAT,
  LOREBOOKS_PER_USER_MAX,
  lorebookCreate,
} from "@hearth/contract";
import { HttpError } from "../../http/errors.ts";
import type { Viewer } from "../accounts/index.ts";
import { importCard, parseCard } from "../characters/index.ts";
import { type PersonaRow, PersonaService } from "../personas/index.ts";
import { type ArchiveReader, type ArchiveSource, badArchive, readArchive } from "./archive.ts";
import {
  alreadyImported,
  countLorebooks,
  type ImportedKind,
  insertLorebook,
  ownPersonas,
  readSettings,
  recordImported,
  writeSettings,
} from "./queries.ts";
import type { AccountTransferDeps } from "./service.ts";

type Skip = AccountImportReport["skipped"][number];

const reasonOf = (error: unknown): string => {
  if (error instanceof HttpError) return error.message;
  throw error;
};

async function readJson(reader: ArchiveReader, name: string): Promise<unknown> {
  const data = await reader.read(name);
  if (!data) return undefined;
  try {
    return JSON.parse(data.toString("utf8").replace(/^\uFEFF/, ""));
  } catch {
    throw badArchive(`${name} is not JSON`);
  }
}

async function readManifest(reader: ArchiveReader): Promise<AccountManifest> {
  const raw = await readJson(reader, "manifest.json");
  if (raw === undefined) throw badArchive("it has no manifest.json (download one with Download everything)");
  const isOurs =
    typeof raw === "object" && raw !== null && (raw as { format?: unknown }).format === HEARTH_ACCOUNT_FORMAT;
  if (!isOurs) throw badArchive("its manifest.json is not a Hearth account manifest");
  const parsed = accountManifest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badArchive(`its manifest.json is invalid (${issue?.path.join(".") || "root"}: ${issue?.message})`);
  }
  return parsed.data;
}

/** What an earlier import of the same archive brought in, and the record of what this one brings. */
interface Ledger {
  /** The id here of an item this archive already brought in, or undefined. */
  here(kind: ImportedKind, sourceId: string): string | undefined;
  record(kind: ImportedKind, sourceId: string, targetId: string): Promise<void>;
}

async function ledgerFor(deps: AccountTransferDeps, viewer: Viewer, reader: ArchiveReader): Promise<Ledger> {
  const archive = createHash("sha256")
    .update((await reader.read("manifest.json")) ?? Buffer.alloc(0))
    .digest("hex");
  const earlier = await alreadyImported(deps.db, viewer.id, archive);
  return {
    here: (kind, sourceId) => earlier.get(`${kind}:${sourceId}`),
    record: (kind, sourceId, targetId) =>
      recordImported(deps.db, viewer.id, archive, kind, sourceId, targetId),
  };
}

/**
 * Imports an archive of GET /api/account/export: characters first (private to the importer, old
 * ids mapped to new), then personas (a name the member already has maps to that persona), then
 * conversations bound to the new characters and personas, then the settings this Hearth allows.
 * Each item that cannot be imported is skipped with its reason; the archive itself being
 * unreadable is a 400 before anything is stored. Each item is recorded as it lands, so importing
 * the same archive again (after a failure part-way, or twice by mistake) adds only what is missing.
 */
export async function importAccount(
  deps: AccountTransferDeps,
  viewer: Viewer,
  source: ArchiveSource,
): Promise<AccountImportReport> {
  const reader = await readArchive(source);
  const manifest = await readManifest(reader);
  const ledger = await ledgerFor(deps, viewer, reader);
  const skipped: Skip[] = [];
  const report: AccountImportReport = {
    characters: 0,
    conversations: 0,
    personas: 0,
    lorebooks: 0,
    settings: [],
    messages: 0,
    memories: 0,
    already_imported: 0,
    skipped,
    note: "Importing the same archive again adds only what is not here yet: what an earlier import brought in is left as it is, and what you deleted since comes back. A persona whose name you already have is reused.",
  };

  const characterIds = new Map<string, string>();
  for (const entry of manifest.characters) {
    const here = ledger.here("character", entry.id);
    if (here) {
      characterIds.set(entry.id, here);
      report.already_imported++;
      continue;
    }
    const file = await reader.read(entry.file);
    if (!file) {
      skipped.push({ item: entry.file, reason: "The card file is missing from the archive." });
      continue;
    }
    if (!viewer.permissions.includes("create_character")) {
      skipped.push({ item: entry.file, reason: "Your account cannot create characters." });
      continue;
    }
    try {
      const { row } = await importCard({ service: deps.characters, parseCard }, viewer, {
        data: file,
        filename: entry.file.split("/").pop() ?? "card.charx",
      });
      characterIds.set(entry.id, row.id);
      await ledger.record("character", entry.id, row.id);
      report.characters++;
    } catch (error) {
      skipped.push({ item: entry.file, reason: reasonOf(error) });
    }
  }

  const personaIds = await importPersonas(deps, viewer, reader, report);
  const bookIds = await importLorebooks(deps, viewer, reader, report, ledger);

  for (const entry of manifest.conversations) {
    if (ledger.here("conversation", entry.id)) {
      report.already_imported++;
      continue;
    }
    const file = await reader.read(entry.file);
    if (!file) {
      skipped.push({ item: entry.file, reason: "The conversation file is missing from the archive." });
      continue;
    }
    // A chat with someone else's public character keeps its id: it binds when that character is here.
    const characterId =
      characterIds.get(entry.character_id) ?? (entry.character_file ? null : entry.character_id);
    if (!characterId) {
      skipped.push({ item: entry.file, reason: "Its character was not imported." });
      continue;
    }
    try {
      // The file is read on a reading thread; its attached books are the ones just imported.
      const imported = await deps.chats.importChat(
        viewer,
        {
          characterId,
          userPersonaId: (entry.persona_id && personaIds.get(entry.persona_id)) || null,
          data: file,
        },
        { lorebookIds: bookIds },
      );
      await ledger.record("conversation", entry.id, imported.conversation_id);
      report.conversations++;
      report.messages += imported.messages;
      report.memories += imported.memories;
    } catch (error) {
      const reason = reasonOf(error);
      skipped.push({
        item: entry.file,
        reason: entry.character_file
          ? reason
          : `Its character (another creator's) is not available here: ${reason}`,
      });
    }
  }

  await importSettings(deps, viewer, reader, report);
  return report;
}

async function importPersonas(
  deps: AccountTransferDeps,
  viewer: Viewer,
  reader: ArchiveReader,
  report: AccountImportReport,
): Promise<Map<string, string>> {
  const service = new PersonaService({ db: deps.db, storage: deps.storage, limits: deps.personaLimits });
  const ids = new Map<string, string>();
  const existing = await ownPersonas(deps.db, viewer.id);
  const names = reader.names().filter((n) => /^personas\/[^/]+\.json$/.test(n));
  let makeDefault: string | null = null;
  for (const name of names) {
    const parsed = exportedPersona.safeParse(await readJson(reader, name));
    if (!parsed.success) {
      report.skipped.push({ item: name, reason: "Not a persona file." });
      continue;
    }
    const p = parsed.data;
    const same = existing.find((row: PersonaRow) => row.name.toLowerCase() === p.name.trim().toLowerCase());
    if (same) {
      ids.set(p.id, same.id);
      report.skipped.push({
        item: name,
        reason: `You already have a persona named ${same.name}; its chats use it.`,
      });
      continue;
    }
    try {
      const row = await service.create(viewer, { name: p.name.trim(), highlights: p.highlights.trim() });
      ids.set(p.id, row.id);
      report.personas++;
      if (p.is_default) makeDefault = row.id;
      const avatar = p.avatar_file ? await reader.read(p.avatar_file) : null;
      if (avatar) {
        await service.setAvatar(viewer.id, row.id, avatar).catch((error: unknown) => {
          report.skipped.push({ item: p.avatar_file ?? name, reason: reasonOf(error) });
        });
      }
    } catch (error) {
      report.skipped.push({ item: name, reason: reasonOf(error) });
    }
  }
  if (makeDefault) await service.setDefault(viewer.id, makeDefault);
  return ids;
}

async function importLorebooks(
  deps: AccountTransferDeps,
  viewer: Viewer,
  reader: ArchiveReader,
  report: AccountImportReport,
  ledger: Ledger,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  let room = LOREBOOKS_PER_USER_MAX - (await countLorebooks(deps.db, viewer.id));
  for (const name of reader.names().filter((n) => /^lorebooks\/[^/]+\.json$/.test(n))) {
    const parsed = lorebookCreate.safeParse(await readJson(reader, name));
    if (!parsed.success) {
      report.skipped.push({ item: name, reason: "Not a lorebook file." });
      continue;
    }
    const oldId = name.slice("lorebooks/".length, -".json".length);
    const here = ledger.here("lorebook", oldId);
    if (here) {
      ids.set(oldId, here);
      report.already_imported++;
      continue;
    }
    if (room <= 0) {
      report.skipped.push({
        item: name,
        reason: `You already keep ${LOREBOOKS_PER_USER_MAX} lorebooks, the most allowed.`,
      });
      continue;
    }
    const id = await insertLorebook(deps.db, viewer.id, parsed.data);
    ids.set(oldId, id);
    await ledger.record("lorebook", oldId, id);
    room--;
    report.lorebooks++;
  }
  return ids;
}

async function importSettings(
  deps: AccountTransferDeps,
  viewer: Viewer,
  reader: ArchiveReader,
  report: AccountImportReport,
): Promise<void> {
  const raw = await readJson(reader, "settings.json");
  if (raw === undefined) return;
  const parsed = exportedSettings.safeParse(raw);
  if (!parsed.success) {
    report.skipped.push({ item: "settings.json", reason: "The settings file could not be read." });
    return;
  }
  const s = parsed.data;
  const current = await readSettings(deps.db, viewer.id);
  const change: Parameters<typeof writeSettings>[2] = {};
  const skip = (item: string, reason: string) =>
    report.skipped.push({ item: `settings.json: ${item}`, reason });
  if (s.highlights.length <= deps.highlightsMax) change.highlights = s.highlights;
  else skip("highlights", `Longer than this Hearth's ${deps.highlightsMax} characters.`);
  if (!s.show_nsfw || current?.adultConfirmedAt) change.showNsfw = s.show_nsfw;
  else skip("show_nsfw", "Turn NSFW on yourself in Settings: it asks you to confirm you are 18 or older.");
  if (s.openai_mode === "disabled" || current?.hasKey) change.llmMode = s.openai_mode;
  else skip("openai_mode", "Your own model key is never exported: add it in Settings, then choose the mode.");
  if (s.default_model_id === null || deps.models.mayChoose(viewer, s.default_model_id)) {
    change.defaultModelId = s.default_model_id;
  } else skip("default_model_id", `The model ${s.default_model_id} is not offered to you here.`);
  await writeSettings(deps.db, viewer.id, change);
  report.settings = Object.keys(change).map(
    (k) =>
      ({
        highlights: "highlights",
        showNsfw: "show_nsfw",
        llmMode: "openai_mode",
        defaultModelId: "default_model_id",
      })[k] ?? k,
  );
}
