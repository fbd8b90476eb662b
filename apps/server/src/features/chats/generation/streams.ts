/** Bus names of one generation: the stream of its events (tokens, done), the notice of its stop. */
export const eventStream = (generationId: string) => `gen:${generationId}`;
export const stopNotice = (generationId: string) => `gen:${generationId}:stop`;
/** How long a stop is kept for a worker that begins to watch after it was sent. */
export const STOP_KEPT_S = 120;
