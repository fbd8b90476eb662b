/** Bus stream names of one generation: its events (tokens, done) and its control (stop). */
export const eventStream = (generationId: string) => `gen:${generationId}`;
export const controlStream = (generationId: string) => `gen:${generationId}:ctl`;
