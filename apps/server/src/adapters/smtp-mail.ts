import nodemailer from "nodemailer";
import type { Mailer, OutgoingMail } from "../ports/mail.ts";

/** Mail through an SMTP server named by a URL (`smtp://user:pass@host:587`, `smtps://…` for TLS). Not pooled:
 * a connection per message, so nothing stays open to close. */
export class SmtpMailer implements Mailer {
  private readonly transport: nodemailer.Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }
}
