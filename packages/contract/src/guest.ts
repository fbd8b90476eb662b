import { z } from "zod";

/**
 * The guest id kept in local storage (chat-and-characters §1, §3; issue 17 item 5): a guest's
 * browser keeps its id and a key the server signed for it, so a cleared cookie comes back as the
 * same guest while the server still has that guest.
 */
export const guestKey = z.object({ guest_id: z.string(), key: z.string() });
export type GuestKey = z.infer<typeof guestKey>;

export const guestResume = z.object({
  guest_id: z.string().min(1).max(100),
  key: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .max(64),
});
