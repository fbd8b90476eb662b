import { StringDecoder } from "node:string_decoder";
import { HttpError } from "../../../http/errors.ts";

/** The longest line a chat file may have: one message with all its alternatives fits many times. */
export const CHAT_LINE_MAX_CHARS = 8 * 1024 * 1024;

/**
 * Splits UTF-8 text into lines as its chunks arrive (a character or a line may straddle two
 * chunks). A line is handed over without its "\n" or "\r\n"; a leading byte order mark is dropped.
 */
export class LineSplitter {
  private decoder = new StringDecoder("utf8");
  private rest = "";
  private started = false;

  /** The lines the chunk completes. */
  push(chunk: Buffer): string[] {
    return this.split(this.decoder.write(chunk), false);
  }

  /** The last line, once the text has ended (an empty one when the text ended with a newline). */
  end(): string[] {
    return this.split(this.decoder.end(), true);
  }

  private split(text: string, last: boolean): string[] {
    let source = text;
    if (!this.started && source.length > 0) {
      this.started = true;
      if (source.startsWith("\uFEFF")) source = source.slice(1);
    }
    // Only the new text is searched: a long line arriving in many chunks is scanned once.
    if (!last && !source.includes("\n")) {
      this.rest += source;
      if (this.rest.length > CHAT_LINE_MAX_CHARS) throw lineTooLong();
      return [];
    }
    const lines = source.split("\n");
    lines[0] = this.rest + lines[0];
    this.rest = last ? "" : (lines.pop() as string);
    if (this.rest.length > CHAT_LINE_MAX_CHARS) throw lineTooLong();
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.length > CHAT_LINE_MAX_CHARS) throw lineTooLong();
      if (line.endsWith("\r")) lines[i] = line.slice(0, -1);
    }
    return lines;
  }
}

const lineTooLong = () =>
  new HttpError(
    413,
    "payloadTooLarge",
    `A line of this chat file is longer than ${CHAT_LINE_MAX_CHARS / 1024 / 1024} MB; no chat message is that long.`,
  );
