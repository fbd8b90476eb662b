// Endpoints of the blocking feature (apps/server/src/features/blocking), issue 11.
export const blockingEndpoints = {};
