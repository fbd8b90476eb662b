import { readFile, stat } from "node:fs/promises";
import { CHAT_IMPORT_MAX_BYTES, type ChatImportReport, uuidParam } from "@hearth/contract";
import { CliError } from "../../cli/errors.ts";
import { withDatabase } from "../../cli/migrate.ts";
import type { Config } from "../../config.ts";
import { HttpError } from "../../http/errors.ts";
import { findViewerByEmailOrUsername } from "../accounts/index.ts";
import { assertCanImportChats } from "./policy.ts";
import { ChatTransferService } from "./service.ts";

/** The import's report in a few lines, as `hearth import-chat` prints it. */
export function describeReport(report: ChatImportReport): string[] {
  const lines = [
    `Imported ${report.messages} message(s) and ${report.alternatives} alternative(s) (${report.format}) as conversation ${report.conversation_id}.`,
  ];
  if (report.user_name_from && report.user_name_from !== report.user_name_to) {
    lines.push(
      `  "${report.user_name_from}" is now your persona "${report.user_name_to}" (${report.user_names_replaced} mention(s) replaced).`,
    );
  }
  if (report.other_speakers.length) {
    lines.push(`  other speakers, now the character: ${report.other_speakers.join(", ")}`);
  }
  if (report.skipped_system_messages)
    lines.push(`  skipped: ${report.skipped_system_messages} system message(s)`);
  if (report.skipped_empty_messages)
    lines.push(`  skipped: ${report.skipped_empty_messages} empty message(s)`);
  if (report.skipped_alternatives)
    lines.push(`  skipped: ${report.skipped_alternatives} alternative(s) past the limit`);
  if (report.memories) lines.push(`  memories: ${report.memories}`);
  if (report.lorebooks || report.lorebooks_not_found) {
    lines.push(`  lorebooks attached: ${report.lorebooks}, not found: ${report.lorebooks_not_found}`);
  }
  if (report.dropped_metadata_keys.length)
    lines.push(`  not kept: ${report.dropped_metadata_keys.join(", ")}`);
  return lines;
}

/** `hearth import-chat FILE --character ID --user EMAIL`: the API's import without the server. */
export async function importChatCommand(
  config: Config,
  file: string,
  opts: { character: string; user: string; persona?: string },
): Promise<void> {
  if (!uuidParam.safeParse(opts.character).success)
    throw new CliError(`"${opts.character}" is not a character id.`);
  if (opts.persona && !uuidParam.safeParse(opts.persona).success) {
    throw new CliError(`"${opts.persona}" is not a persona id.`);
  }
  let data: Buffer;
  try {
    if ((await stat(file)).size > CHAT_IMPORT_MAX_BYTES) {
      throw new CliError(`${file} is larger than ${CHAT_IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
    }
    data = await readFile(file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${file}: ${(error as Error).message}`);
  }
  await withDatabase(config, async ({ db }) => {
    const viewer = await findViewerByEmailOrUsername(db, opts.user);
    if (!viewer) throw new CliError(`No user with email or username "${opts.user}".`);
    const service = new ChatTransferService({ db, edition: config.edition });
    try {
      assertCanImportChats(viewer);
      const report = await service.importChat(viewer, {
        characterId: opts.character,
        userPersonaId: opts.persona ?? null,
        data,
      });
      for (const line of describeReport(report)) console.log(line);
    } catch (error) {
      if (error instanceof HttpError) throw new CliError(`${file}: not imported: ${error.message}`);
      throw error;
    }
  });
}
