import type { PasswordContext } from "./passwords.ts";

/** The account the passwords below are for. */
export const PROBE_ACCOUNT = {
  email: "marta.kowalski@example.com",
  name: "Marta Kowalski",
  username: "martak",
} satisfies PasswordContext;

/**
 * Twenty weak passwords that all have 10 characters or more: what people try first and what an
 * attacker tries first. The account's own e-mail and username are among them.
 */
export const WEAK_PASSWORDS = [
  " ".repeat(10),
  "aaaaaaaaaa",
  "0000000000",
  "abcdefghij",
  PROBE_ACCOUNT.email,
  "Passw0rd!!",
  "changeme12",
  "qwertyuiop",
  "1234567890",
  "password123",
  "iloveyou12",
  "letmein123",
  `${PROBE_ACCOUNT.username}2024`,
  "Summer2024!",
  "football12",
  "monkey1234",
  "dragon1234",
  "abc123abc123",
  "1q2w3e4r5t",
  "hearth1234",
];

export const STRONG_PASSWORDS = ["correct horse battery", "tidal piano crater", "Quiet-Lantern-Orbit-42"];
