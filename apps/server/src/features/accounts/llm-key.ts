import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * A member's external language-model key, encrypted at rest with AES-256-GCM under a key derived
 * from the server's secret (HEARTH_SECRET or the persisted one). Stored as
 * `v1.<iv>.<tag>.<ciphertext>` (base64url), so a database dump alone never reveals the key.
 * The plain key leaves this module only towards the model server; answers carry `last4` at most.
 */

const VERSION = "v1";

function keyFrom(secret: string): Buffer {
  // A distinct derivation label, so this key is never the same bytes as the session-signing secret.
  return createHash("sha256").update(`hearth:llm-key:${secret}`).digest();
}

export function encryptLlmKey(secret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFrom(secret), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The plain key, or null when the stored value is missing or cannot be opened (secret changed). */
export function decryptLlmKey(secret: string, stored: string | null): string | null {
  if (!stored) return null;
  const [version, iv, tag, data] = stored.split(".");
  if (version !== VERSION || !iv || !tag || !data) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFrom(secret), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return null;
  }
}

/** What the client may see of a stored key. */
export function describeLlmKey(
  secret: string,
  stored: string | null,
): { has_key: boolean; last4: string | null } {
  const plain = decryptLlmKey(secret, stored);
  return plain ? { has_key: true, last4: plain.slice(-4) } : { has_key: false, last4: null };
}

/** A member's own-model setting as generation needs it: the mode and the plain key (null without one). */
export interface MemberLlm {
  mode: "disabled" | "enabled" | "hybrid";
  key: string | null;
}
