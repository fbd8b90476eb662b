import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { decryptLlmKey, type MemberLlm } from "./llm-key.ts";
import { users } from "./schema.ts";

/** The member's external-model mode and key, decrypted for the generation worker only (never logged). */
export async function memberLlm(db: Db, secret: string, userId: string): Promise<MemberLlm> {
  const [row] = await db
    .select({ mode: users.llmMode, stored: users.llmApiKeyEncrypted })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return { mode: "disabled", key: null };
  return { mode: row.mode, key: decryptLlmKey(secret, row.stored) };
}
