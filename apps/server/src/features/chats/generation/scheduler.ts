import type { GenerationEvent } from "@hearth/contract";
import type { Db } from "../../../db/client.ts";
import type { EventBus } from "../../../ports/bus.ts";
import type { JobQueue } from "../../../ports/queue.ts";
import { findConversation, findMessage, writeReply } from "../queries.ts";
import type { GenerationRow } from "../schema.ts";
import { releaseConversation } from "./queries.ts";
import { storedDone } from "./recovery.ts";
import {
  cancelQueued,
  claimGenerations,
  medianServiceMs,
  placeInQueue,
  repliesWaitingLongerThan,
} from "./scheduler-queries.ts";
import type { Capacity } from "./scheduling.ts";
import { eventStream } from "./streams.ts";

/** A guess of how long a reply holds a slot, until replies on that capacity have been measured. */
const UNMEASURED_MS = 10_000;
const MEASURE_CACHE_MS = 30_000;
/** How often a process looks for replies nobody took (their worker died while holding the slot). */
const WAKE_EVERY_MS = 10_000;
const WAKE_AFTER_S = 5;

/** How many started replies a process remembers, to skip their wake-ups (LineDispatcher.took). */
const TAKEN_KEPT = 10_000;

/** The most replies one claim hands out (one statement; more wait for the next pass). */
const MAX_BATCH = 64;

/** How a run ended, as the line needs to know it. */
export interface RunEnd {
  /** No reply waited in line as it ended. */
  lineEmpty: boolean;
}

/**
 * The line for the model, as one process serves it. Queue jobs are only wake-ups: a wake-up
 * waits until this process has a free slot (so while it is full, other processes take the
 * wake-ups), then claims in batches every reply in line that may run here now
 * (scheduler-queries.ts), and every reply that ends looks again. The order is the database's,
 * one line for every process; passes that overlap share one.
 */
export class LineDispatcher<Handoff = unknown> {
  private running = 0;
  private passing: Promise<void> | null = null;
  private again = false;
  private freed: (() => void)[] = [];
  private draining = false;
  /** Each running reply's end and its interrupt (a drain's deadline closes it as interrupted). */
  private runs = new Set<{ ended: Promise<void>; interrupt: AbortController }>();
  private cutShort: (() => void) | null = null;
  private hurried = false;
  /** Ids of the replies this process started lately, oldest first (at most TAKEN_KEPT). */
  private taken = new Set<string>();
  /** What the accept of a reply being claimed here now handed over for its worker (claimHere). */
  private handoffs = new Map<string, Handoff>();

  constructor(
    private deps: {
      db: Db;
      workerId: string;
      capacities: () => readonly Capacity[];
      /** Replies this process runs at once. */
      concurrency: number;
      /**
       * `handoff`: what the reply's accept handed to claimHere, when this pass took it. Answers
       * `lineEmpty` when no reply waited in line as it ended (no claim pass is then made for it).
       */
      // biome-ignore lint/suspicious/noConfusingVoidType: a run may report nothing (pictures, tests)
      run: (generation: GenerationRow, interrupt: AbortSignal, handoff?: Handoff) => Promise<RunEnd | void>;
      log: (error: unknown) => void;
    },
  ) {}

  /** A queue job's handler; false when this process is draining and the wake-up is not used. */
  async wake(): Promise<boolean> {
    while (this.running >= this.deps.concurrency && !this.draining)
      await new Promise<void>((resolve) => this.freed.push(resolve));
    if (this.draining) return false;
    await this.pass();
    return true;
  }

  /**
   * Whether this process started that reply: its queue wake-up then needs no claim here (sent
   * when the accept's pass did not take it, a later pass here may have). Each reply's end makes
   * a pass of its own, and the periodic look finds what is left, so no other reply waits on it.
   */
  took(generationId: string): boolean {
    return this.taken.has(generationId);
  }

  /**
   * A wake-up from this process's own accept: a claim pass now if a slot is free here. Answers
   * whether this process took that reply; when it did not (full here, its capacity busy, the
   * claim failed, draining), the caller wakes the other processes. `handoff` goes to the reply's
   * worker if this pass takes it; a reply taken later reads afresh (it may have waited long).
   */
  async claimHere(generationId: string, handoff?: Handoff): Promise<boolean> {
    if (this.running >= this.deps.concurrency) return false;
    if (handoff !== undefined) this.handoffs.set(generationId, handoff);
    try {
      await this.pass();
    } catch (error) {
      this.deps.log(error);
      return false;
    } finally {
      this.handoffs.delete(generationId);
    }
    return this.took(generationId);
  }

  /**
   * Shutdown: claims nothing more (replies in line stay there for another process, or this one
   * after a restart), lets running replies finish for up to `deadlineMs`, then interrupts those
   * left (the worker closes each as interrupted with its text kept) and waits for them to close.
   * `interruptNow` cuts the wait short. Answers how many replies were running and interrupted.
   */
  async drain(deadlineMs: number): Promise<{ running: number; interrupted: number }> {
    this.draining = true;
    for (const resolve of this.freed.splice(0)) resolve();
    // A claim in flight ends first: the replies it took are running here and drain with the rest.
    await this.passing?.catch(() => {});
    const running = this.runs.size;
    if (running === 0) return { running, interrupted: 0 };
    const all = Promise.allSettled([...this.runs].map((r) => r.ended));
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((resolve) => {
        this.cutShort = () => resolve(true);
        if (this.hurried) resolve(true);
        timer = setTimeout(() => resolve(true), deadlineMs);
      }),
    ]);
    clearTimeout(timer);
    if (!late) return { running, interrupted: 0 };
    const left = [...this.runs];
    for (const r of left) r.interrupt.abort();
    await all;
    return { running, interrupted: left.length };
  }

  /** Ends a drain's wait at once (a second signal): running replies are interrupted now. */
  interruptNow(): void {
    this.hurried = true;
    this.cutShort?.();
  }

  private pass(): Promise<void> {
    if (this.draining) return Promise.resolve();
    if (this.passing) {
      this.again = true;
      return this.passing;
    }
    const { db, workerId, capacities, concurrency } = this.deps;
    this.passing = (async () => {
      try {
        do {
          this.again = false;
          for (;;) {
            const room = Math.min(concurrency - this.running, MAX_BATCH);
            if (room <= 0 || this.draining) break;
            const claimed = await claimGenerations(db, workerId, capacities(), room);
            for (const generation of claimed) this.start(generation);
            if (claimed.length < room) break;
          }
        } while (this.again && !this.draining);
      } finally {
        this.passing = null;
      }
    })();
    return this.passing;
  }

  private start(generation: GenerationRow): void {
    this.running += 1;
    this.taken.add(generation.id);
    if (this.taken.size > TAKEN_KEPT) this.taken.delete(this.taken.values().next().value as string);
    const interrupt = new AbortController();
    const handoff = this.handoffs.get(generation.id);
    this.handoffs.delete(generation.id);
    const ended = this.deps
      .run(generation, interrupt.signal, handoff)
      .then(
        (end) => end || undefined,
        (error: unknown) => {
          this.deps.log(error);
          return undefined;
        },
      )
      .then((end) => {
        this.running -= 1;
        this.runs.delete(entry);
        this.freed.shift()?.();
        // Its slot, and its member's, are free: whoever waited for them may start. None waited
        // as it ended (asked under the claims' lock, migration 0019): a reply queued since is
        // claimed by its own accept's pass or by the queue's wake-up, which see the slot free.
        if (!end?.lineEmpty) this.pass().catch(this.deps.log);
      });
    const entry = { ended, interrupt };
    this.runs.add(entry);
  }
}

/**
 * The queue's wake-up, as a process takes it: a claim pass once a slot is free here. The wake-up
 * of a reply this process already started asks for nothing (it was about one claim in three:
 * docs/PERFORMANCE.md). One taken as this process began to drain goes back for another process.
 */
export function takeWakeUp<H>(line: LineDispatcher<H>, queue: JobQueue, jobName: string) {
  return async (data: { generationId?: string; wake?: boolean }): Promise<void> => {
    if (data.generationId && line.took(data.generationId)) return;
    if (!(await line.wake())) await queue.enqueue(jobName, { wake: true });
  };
}

/** How many replies one process can run at once: every slot it might be given. */
export function workerConcurrency(capacities: readonly Capacity[]): number {
  return Math.max(
    1,
    capacities.reduce((sum, c) => sum + c.limit, 0),
  );
}

/**
 * Stops a reply still waiting in line: its row is closed at once (no slot was taken), the reply
 * keeps what it held, the chat is unlocked and every client of the stream gets its `done`.
 * False when a worker already took it (it then hears the stop through the bus).
 */
export async function cancelWaiting(db: Db, bus: EventBus, id: string): Promise<boolean> {
  const cancelled = await cancelQueued(db, id);
  if (!cancelled) return false;
  const message = cancelled.messageId ? await findMessage(db, cancelled.messageId) : null;
  if (message?.state === "streaming") await writeReply(db, message.id, message.content, "stopped");
  await releaseConversation(db, cancelled.conversationId, cancelled.id);
  const done: GenerationEvent = await storedDone(
    db,
    cancelled,
    await findConversation(db, cancelled.conversationId),
  );
  await bus.append(eventStream(cancelled.id), done);
  return true;
}

const measured = new Map<string, { ms: number; at: number }>();

/**
 * A waiting reply's place (1: next; 0: already running) and expected wait: the replies ahead of
 * it on its capacity times the median time replies held a slot there lately (measured in the
 * database, so every process answers alike), shared among the capacity's slots.
 */
export async function placeOf(
  db: Db,
  generation: Pick<GenerationRow, "id" | "capacityKey">,
  slots: number,
  /** Its place when already counted (a send's statement does), saving the query. */
  counted: number | null = null,
): Promise<{ position: number; timeLeftSeconds: number }> {
  const position = counted ?? (await placeInQueue(db, generation.id));
  if (position === 0) return { position, timeLeftSeconds: 0 };
  let known = measured.get(generation.capacityKey);
  if (!known || Date.now() - known.at > MEASURE_CACHE_MS) {
    known = { ms: (await medianServiceMs(db, generation.capacityKey)) ?? UNMEASURED_MS, at: Date.now() };
    measured.set(generation.capacityKey, known);
  }
  // Everyone ahead, and then this reply's own slot, each taking the usual time spread over the slots.
  return { position, timeLeftSeconds: Math.round((position * known.ms) / Math.max(1, slots) / 1000) };
}

/** How often a waiting client is told its new place. */
const PLACE_REFRESH_MS = 5_000;

/**
 * Tells a client whose reply waits in line its place again every few seconds, until a worker
 * takes the reply (place 0, which clears the banner) or `stop` is called. Answers `stop`.
 */
export function keepPlaceFresh(
  db: Db,
  generation: Pick<GenerationRow, "id" | "capacityKey">,
  slots: number,
  send: (place: { position: number; timeLeftSeconds: number }) => void,
): () => void {
  const timer = setInterval(() => {
    placeOf(db, generation, slots)
      .then((place) => {
        send(place);
        if (place.position === 0) clearInterval(timer);
      })
      // A place is a hint: a missed refresh is tried again at the next tick.
      .catch(() => {});
  }, PLACE_REFRESH_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Replies left in line when the worker holding their slot died (upkeep freed the slot, but no
 * wake-up remains): a periodic look adds one. Answers a function that stops it.
 */
export function startLineWatch(db: Db, queue: JobQueue, jobName: string, log: (e: unknown) => void) {
  const timer = setInterval(() => {
    repliesWaitingLongerThan(db, WAKE_AFTER_S)
      .then((waiting) => (waiting ? queue.enqueue(jobName, { wake: true }) : undefined))
      .catch(log);
  }, WAKE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
