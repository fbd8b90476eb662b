import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

// A local SMTP server for the tests of mailed reset links (the API tests and the e2e test).

export interface Mail {
  to: string[];
  body: string;
}

/** A local SMTP server that hands each message to the next waiting reader. */
export async function startSmtp() {
  const waiting: ((mail: Mail) => void)[] = [];
  const inbox: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, session, done) {
      let body = "";
      stream.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      stream.on("end", () => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), body };
        const next = waiting.shift();
        if (next) next(mail);
        else inbox.push(mail);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** How many messages arrived that nobody has read yet. */
    received: () => inbox.length,
    /** The next message (already received or still to come). */
    next: () =>
      new Promise<Mail>((resolve) => {
        const early = inbox.shift();
        if (early) resolve(early);
        else waiting.push(resolve);
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The reset link in a mail body (see linkIn). */
export function resetLinkIn(body: string): URL {
  return linkIn(body, "reset-password");
}

/**
 * The link to a page (`reset-password`, `unlock-sign-in`) in a mail body. Quoted-printable soft
 * breaks and escapes are undone only when the message says it is quoted-printable: a 7-bit body
 * keeps its text as sent (a token that begins with two hex digits after "=" once read as an
 * escape and failed one run in eight).
 */
export function linkIn(body: string, page: string): URL {
  const quoted = /^content-transfer-encoding:\s*quoted-printable/im.test(body);
  const plain = quoted
    ? body
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)))
    : body;
  const match = plain.match(new RegExp(`https?://\\S+/${page}\\?token=[\\w-]+`));
  if (!match) throw new Error(`no ${page} link in ${plain}`);
  return new URL(match[0]);
}
