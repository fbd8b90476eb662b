import type { BetterAuthOptions, DBAdapter, DBTransactionAdapter } from "better-auth";
import { APIError } from "better-auth/api";
import { USERNAME_TAKEN, violates } from "./profile-rules.ts";

type AdapterFactory = (options: BetterAuthOptions) => DBAdapter<BetterAuthOptions>;

/**
 * The username check before an insert is only friendly; the unique index is what makes it
 * atomic. When two sign-ups race for one name, the loser's insert breaks the index: that becomes
 * better-auth's 400 with the spec's message instead of its generic "Failed to create user".
 */
export function withUsernameConflicts(factory: AdapterFactory): AdapterFactory {
  return (options) => {
    const adapter = factory(options);
    return {
      ...guarded(adapter),
      // Sign-up writes inside a transaction, through the adapter handed to this callback.
      transaction: (callback) => adapter.transaction((trx) => callback(guarded(trx))),
    };
  };
}

function guarded<A extends DBTransactionAdapter<BetterAuthOptions>>(adapter: A): A {
  return {
    ...adapter,
    create: (async (data) => mapped(() => adapter.create(data))) as A["create"],
    update: (async (data) => mapped(() => adapter.update(data))) as A["update"],
    updateMany: (async (data) => mapped(() => adapter.updateMany(data))) as A["updateMany"],
  };
}

async function mapped<R>(write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (error) {
    if (violates(error, "23505", "users_username_key")) {
      throw new APIError("BAD_REQUEST", { message: USERNAME_TAKEN });
    }
    if (violates(error, "23514", "users_username_canonical")) {
      throw new APIError("BAD_REQUEST", { message: "Username contain invalid characters" });
    }
    throw error;
  }
}
