import { parentPort } from "node:worker_threads";
import { prepareChat } from "./prepared.ts";
import { type ReadReply, type ReadRequest, toWireError } from "./reading-wire.ts";
import { readChatFile } from "./whole.ts";

/**
 * The chat file reading thread: a whole file's JSON parse, its schema check and its conversion
 * into rows are seconds of work for a chat near the limit; here they run beside the event loop
 * instead of on it. Files are read one at a time; the answer's row batches are moved back.
 */

const port = parentPort;
if (!port) throw new Error("reading-thread.ts runs as a worker thread (threaded-reading.ts).");

port.on("message", async (request: ReadRequest) => {
  let reply: ReadReply;
  try {
    const file = Buffer.concat(request.file);
    const chat = await prepareChat(readChatFile(file), request.names);
    reply = { id: request.id, chat };
  } catch (error) {
    reply = { id: request.id, error: toWireError(error) };
  }
  const moved = "chat" in reply ? reply.chat.rowBatches.map((b) => b.buffer as ArrayBuffer) : [];
  port.postMessage(reply, moved);
});
