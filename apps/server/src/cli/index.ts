import { Command, Option } from "commander";
import { ConfigError, loadConfig } from "../config.ts";
import { CliError } from "./errors.ts";

// Command modules load lazily so `--help` and light commands start fast.
const program = new Command()
  .name("hearth")
  .description(
    "Hearth: self-hostable AI character chat. Settings come from environment variables (see README).",
  )
  .showHelpAfterError();

program
  .command("start")
  .description("Migrate the database and serve the API and web client on one port (PORT, default 3000)")
  .action(async () => {
    const { startServer } = await import("../main.ts");
    await startServer(loadConfig());
  });

program
  .command("migrate")
  .description("Apply pending database migrations (PGlite in HEARTH_DATA_DIR, or DATABASE_URL)")
  .action(async () => (await import("./migrate.ts")).migrateCommand(loadConfig()));

const user = program.command("user").description("Manage accounts");
user
  .command("create")
  .description("Create an email + password account")
  .requiredOption("--email <email>", "sign-in address")
  .option("--password <password>", "password (at least 8 characters); generated and printed when omitted")
  .option("--name <name>", "display name", "Admin")
  .option("--username <username>", "username (3-20 letters, digits, _ or -)")
  .option("--admin", "make the account an administrator", false)
  .action(async (opts) => (await import("./users.ts")).userCreateCommand(loadConfig(), opts));

user
  .command("set-role")
  .description("Set a user's subscriber role, status, restriction or admin flag")
  .argument("<user>", "email or username")
  .addOption(new Option("--role <role>", "subscriber role").choices(["free", "minimal", "basic", "premium"]))
  .addOption(
    new Option("--status <status>", "subscription status").choices([
      "active",
      "cancelled",
      "grace",
      "expired",
      "inactive",
    ]),
  )
  .addOption(
    new Option("--restriction <restriction>", "account restriction").choices([
      "none",
      "limited",
      "temporary",
      "complete",
    ]),
  )
  .option("--admin", "grant administrator")
  .option("--no-admin", "revoke administrator")
  .action(async (who, opts) => (await import("./users.ts")).userSetRoleCommand(loadConfig(), who, opts));

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof ConfigError || error instanceof CliError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
