import { PASSWORD_MIN_LENGTH } from "@hearth/contract";
import { Command, Option } from "commander";
import { type Config, ConfigError, loadConfig } from "../config.ts";
import { dataDirHolder, lockDataDir, lockedMessage } from "./data-dir-lock.ts";
import { CliError } from "./errors.ts";

/**
 * Commands that write the embedded database hold the data directory while they run, so they
 * refuse beside a running server (and a server refuses to start beside them). PostgreSQL
 * (DATABASE_URL) takes many clients: nothing is locked then.
 */
async function writingDatabase(command: string, fn: (config: Config) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const release = config.databaseUrl ? null : lockDataDir(config.dataDir, command);
  try {
    await fn(config);
  } finally {
    release?.();
  }
}

/**
 * The active model and model files are read by a running server only at its start: changing them
 * beside it would show one model and run another. The admin Models page switches it live.
 */
function modelsConfig(command: string): Config {
  const config = loadConfig();
  const holder = dataDirHolder(config.dataDir);
  if (holder?.command === "start") {
    throw new CliError(
      `${lockedMessage(config.dataDir, holder, command).split("\n")[0]}\n` +
        `The running server would not follow \`hearth ${command}\`: choose the model on its admin Models page (/admin/models), or stop it first.`,
    );
  }
  return config;
}

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
  .addOption(
    new Option(
      "--role <role>",
      "api: serve requests only; worker: run replies and jobs only (health and metrics on PORT); all: both (HEARTH_ROLE, default all). api and worker need DATABASE_URL and REDIS_URL",
    ).choices(["all", "api", "worker"]),
  )
  .action(async (opts: { role?: string }) => {
    const config = loadConfig(opts.role ? { ...process.env, HEARTH_ROLE: opts.role } : process.env);
    // Held until the process exits.
    if (!config.databaseUrl) lockDataDir(config.dataDir, "start");
    const { startServer } = await import("../main.ts");
    await startServer(config);
  });

program
  .command("migrate")
  .description("Apply pending database migrations (PGlite in HEARTH_DATA_DIR, or DATABASE_URL)")
  .action(async () =>
    writingDatabase("migrate", async (config) => (await import("./migrate.ts")).migrateCommand(config)),
  );

const user = program.command("user").description("Manage accounts");
user
  .command("create")
  .description("Create an email + password account")
  .requiredOption("--email <email>", "sign-in address")
  .option(
    "--password <password>",
    `password (at least ${PASSWORD_MIN_LENGTH} characters, hard to guess); generated and printed when omitted`,
  )
  .option("--name <name>", "display name", "Admin")
  .option("--username <username>", "username (3-20 letters, digits, _ or -)")
  .option("--admin", "make the account an administrator", false)
  .action(async (opts) =>
    writingDatabase("user create", async (config) =>
      (await import("../features/accounts/cli.ts")).userCreateCommand(config, opts),
    ),
  );

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
  .action(async (who, opts) =>
    writingDatabase("user set-role", async (config) =>
      (await import("../features/accounts/cli.ts")).userSetRoleCommand(config, who, opts),
    ),
  );

program
  .command("import")
  .description("Import character cards (Tavern V1/V2/V3 PNG, JSON or CharX) as private characters")
  .argument("<files...>", "card files")
  .option("--user <user>", "email or username of the owner (default: the first administrator)")
  .addHelpText(
    "after",
    "\nExamples:\n  hearth import mira.png quill.charx\n  hearth import cards/*.json --user alice",
  )
  .action(async (files, opts) =>
    writingDatabase("import", async (config) =>
      (await import("../features/characters/cli.ts")).importCommand(config, files, opts),
    ),
  );

program
  .command("import-chat")
  .description(
    "Import a chat (SillyTavern JSONL or a Hearth chat export) as a new conversation with a character",
  )
  .argument("<file>", "chat file")
  .requiredOption("--character <id>", "the character the chat is with")
  .requiredOption("--user <user>", "email or username of the member it is imported for")
  .option("--persona <id>", "the member's persona for the chat's user (default: their default persona)")
  .addHelpText(
    "after",
    "\nExample:\n  hearth import-chat 'Mira - 2024-05-01@20h00m00s.jsonl' --character 7f0c… --user alice@example.com",
  )
  .action(async (file, opts) =>
    writingDatabase("import-chat", async (config) =>
      (await import("../features/chat-transfer/cli.ts")).importChatCommand(config, file, opts),
    ),
  );

program
  .command("seed")
  .description("Create the demo characters (public, owned by the system user @hearth); safe to run again")
  .action(async () =>
    writingDatabase("seed", async (config) =>
      (await import("../features/characters/cli.ts")).seedCommand(config),
    ),
  );

program
  .command("backup")
  .description(
    "Back up the database and stored files (avatars, images, audio) into one .tar.gz, while Hearth runs or not",
  )
  .option("--out <file>", "where to write it (default: HEARTH_BACKUP_DIR/hearth-backup-<UTC time>.tar.gz)")
  .addHelpText(
    "after",
    "\nExamples:\n  hearth backup\n  hearth backup --out /mnt/offsite/hearth-$(date +%F).tar.gz\n\n" +
      "On the embedded database a running Hearth takes the backup itself (over a local socket only its\n" +
      "user can open); on PostgreSQL (DATABASE_URL) pg_dump is used, from PostgreSQL's client tools.",
  )
  .action(async (opts: { out?: string }) =>
    (await import("../features/backups/cli.ts")).backupCommand(loadConfig(), opts),
  );

program
  .command("restore")
  .description(
    "Bring this install back to a backup (Hearth must be stopped); the data it replaces is kept aside",
  )
  .argument("<file>", "a backup written by `hearth backup` or the schedule")
  .option("--force", "on PostgreSQL: restore although other connections are open on the database")
  .addHelpText("after", "\nExample:\n  hearth restore data/backups/hearth-backup-20250101T060000Z.tar.gz")
  .action(async (file: string, opts: { force?: boolean }) =>
    (await import("../features/backups/cli.ts")).restoreCommand(loadConfig(), file, opts),
  );

const models = program
  .command("models")
  .description("Download and choose local GGUF chat models (stored in HEARTH_DATA_DIR/models)")
  .addHelpText(
    "after",
    "\nExamples:\n  hearth models list\n  hearth models pull qwen2.5-1.5b-instruct --use\n  hearth models use hearth-tiny",
  );
models
  .command("pull")
  .description("Download a model from the catalog or a URL; an interrupted download resumes")
  .argument("<name|url>", "catalog name (see `hearth models list`) or an http(s) URL of a .gguf file")
  .option("--name <id>", "store the model under this id (default: catalog name, or from the URL's file name)")
  .option("--use", "make it the active model (the server loads it at the next start)")
  .addHelpText(
    "after",
    "\nExamples:\n  hearth models pull llama-3.2-1b-instruct --use\n" +
      "  hearth models pull https://example.com/models/my-model.Q4_K_M.gguf --name my-model",
  )
  .action(async (target, opts) =>
    (await import("../features/models/cli.ts")).modelsPullCommand(
      opts.use ? modelsConfig("models pull --use") : loadConfig(),
      target,
      opts,
    ),
  );
models
  .command("list")
  .description("Show the bundled model, downloaded models (* = active) and catalog models to download")
  .addHelpText("after", "\nExample:\n  hearth models list")
  .action(async () => (await import("../features/models/cli.ts")).modelsListCommand(loadConfig()));
models
  .command("use")
  .description("Make a downloaded (or the bundled) model the active one, loaded at the next server start")
  .argument("<id>", "model id from `hearth models list`")
  .addHelpText(
    "after",
    "\nExamples:\n  hearth models use qwen2.5-3b-instruct\n  hearth models use hearth-tiny",
  )
  .action(async (id) =>
    (await import("../features/models/cli.ts")).modelsUseCommand(modelsConfig("models use"), id),
  );
models
  .command("remove")
  .description("Delete a downloaded model (and any unfinished download of it)")
  .argument("<id>", "model id from `hearth models list`")
  .addHelpText("after", "\nExample:\n  hearth models remove llama-3.2-1b-instruct")
  .action(async (id) =>
    (await import("../features/models/cli.ts")).modelsRemoveCommand(modelsConfig("models remove"), id),
  );

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof ConfigError || error instanceof CliError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
