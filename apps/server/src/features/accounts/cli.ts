import { randomBytes } from "node:crypto";
import type { AccountStatus, Restriction, SubscriberRole } from "@hearth/contract";
import { CliError } from "../../cli/errors.ts";
import { withDatabase } from "../../cli/migrate.ts";
import type { Config } from "../../config.ts";
import { createAuth } from "./auth.ts";
import { findUserByEmailOrUsername, updateUser } from "./queries.ts";

interface CreateOptions {
  email: string;
  password?: string;
  name: string;
  username?: string;
  admin: boolean;
}

export async function userCreateCommand(config: Config, opts: CreateOptions) {
  const password = opts.password ?? randomBytes(12).toString("base64url");
  await withDatabase(config, async ({ db }) => {
    // An account made here is admin only when --admin says so, even on a fresh install.
    const auth = createAuth({ ...config, firstUserAdmin: false }, db);
    const result = await auth.api
      .signUpEmail({ body: { email: opts.email, password, name: opts.name, username: opts.username } })
      .catch((error: unknown) => {
        throw new CliError(
          `Could not create the account: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    if (opts.admin) await updateUser(db, result.user.id, { is_admin: true });
    console.log(`Created ${opts.admin ? "administrator" : "user"} ${opts.email} (id ${result.user.id}).`);
    if (!opts.password) console.log(`Generated password: ${password}`);
  });
}

interface SetRoleOptions {
  role?: SubscriberRole;
  status?: AccountStatus;
  restriction?: Restriction;
  admin?: boolean;
}

export async function userSetRoleCommand(config: Config, who: string, opts: SetRoleOptions) {
  const change = {
    role: opts.role,
    status: opts.status,
    restriction: opts.restriction,
    is_admin: opts.admin,
  };
  if (Object.values(change).every((v) => v === undefined)) {
    throw new CliError("Nothing to change: pass --role, --status, --restriction, --admin or --no-admin.");
  }
  await withDatabase(config, async ({ db }) => {
    const user = await findUserByEmailOrUsername(db, who);
    if (!user) throw new CliError(`No user with email or username "${who}".`);
    const updated = await updateUser(db, user.id, change);
    console.log(
      `${updated?.email}: role ${updated?.role}, status ${updated?.status}, restriction ${updated?.restriction}, admin ${updated?.isAdmin}`,
    );
  });
}
