import type { Db } from "../../db/client.ts";
import type { Lorebook } from "./book.ts";
import { attachedLorebooks } from "./queries.ts";
import { fromLorebookBody } from "./wire.ts";

/**
 * The books attached to a conversation, as prompts apply them, in their attached order. Entry
 * ids are prefixed with the book's id: two books may both have an entry "0", and the prompt
 * report names entries by id.
 */
export async function attachedBooksForPrompt(db: Db, conversationId: string): Promise<Lorebook[]> {
  const rows = await attachedLorebooks(db, conversationId);
  return rows.map((row) => {
    const book = fromLorebookBody(row.book);
    return { ...book, entries: book.entries.map((e) => ({ ...e, id: `${row.id}:${e.id}` })) };
  });
}
