import { z } from "zod";
import { accountStatus, permission, restriction, subscriberRole } from "./permissions.ts";

export const username = z
  .string()
  .trim()
  .toLowerCase()
  .min(3, "Username is too short")
  .max(20, "Username should be less then 20 characters")
  .regex(/^[a-z0-9_-]+$/, "Username contain invalid characters");

export const me = z.object({
  id: z.string(),
  email: z.string().nullable(),
  name: z.string(),
  username: z.string().nullable(),
  avatar_url: z.string().nullable(),
  role: subscriberRole,
  status: accountStatus,
  restriction,
  is_guest: z.boolean(),
  is_admin: z.boolean(),
  permissions: z.array(permission),
  /** Context memory in tokens for 8K-class models; 16K models double the 8k_context tier. */
  context_tokens: z.number().int(),
  created_at: z.string(),
});
export type Me = z.infer<typeof me>;

/** Public configuration the client needs before sign-in (brand, sign-in options). */
export const appConfig = z.object({
  brand: z.object({ name: z.string(), accent: z.string() }),
  edition: z.enum(["roleplay", "family", "partner"]),
  auth: z.object({
    email_password: z.boolean(),
    guests: z.boolean(),
    oidc: z.object({ provider_id: z.string(), label: z.string() }).nullable(),
    /** A fresh install: the next account that signs up becomes the administrator. */
    first_user_admin: z.boolean(),
  }),
  version: z.string(),
});
export type AppConfig = z.infer<typeof appConfig>;

export const adminUser = me.pick({
  id: true,
  email: true,
  name: true,
  username: true,
  role: true,
  status: true,
  restriction: true,
  is_guest: true,
  is_admin: true,
  created_at: true,
});
export type AdminUser = z.infer<typeof adminUser>;

export const adminUserList = z.object({
  users: z.array(adminUser),
  next_cursor: z.string().nullable(),
});
export type AdminUserList = z.infer<typeof adminUserList>;

/** Accounts per page on the admin users page. */
export const ADMIN_USER_PAGE_SIZE = 50;

export const adminUserListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(ADMIN_USER_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
});

export const adminUserUpdate = z
  .object({
    role: subscriberRole.optional(),
    status: accountStatus.optional(),
    restriction: restriction.optional(),
    is_admin: z.boolean().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to change");
export type AdminUserUpdate = z.infer<typeof adminUserUpdate>;
