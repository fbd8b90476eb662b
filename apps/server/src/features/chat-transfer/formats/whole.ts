import { isHearthChat, readHearthChat } from "./hearth.ts";
import { notAChatFile } from "./refusals.ts";
import { readSillyTavernChat } from "./sillytavern.ts";
import type { ImportedChat } from "./types.ts";

/** Reads a whole chat file: Hearth's JSON, else SillyTavern's JSONL. */
export function readChatFile(data: Buffer): ImportedChat {
  const source = data.toString("utf8").replace(/^\uFEFF/, "");
  // Both formats are JSON text starting with an object: anything else (an image, a zip) is not a chat.
  if (!source.trimStart().startsWith("{")) throw notAChatFile();
  let whole: unknown;
  try {
    whole = JSON.parse(source);
  } catch {
    whole = undefined;
  }
  if (whole !== undefined && isHearthChat(whole)) return readHearthChat(whole);
  return readSillyTavernChat(source);
}
