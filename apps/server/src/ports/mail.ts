/**
 * Outgoing e-mail (password reset links). Configured by SMTP_URL; without it Hearth sends no mail
 * and members cannot request a reset themselves (an administrator issues the link instead).
 */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Sends one message; rejects when the server refuses it. */
  send(mail: OutgoingMail): Promise<void>;
}
