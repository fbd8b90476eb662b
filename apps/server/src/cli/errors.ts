/** An expected CLI failure: its message is printed without a stack trace. */
export class CliError extends Error {}
