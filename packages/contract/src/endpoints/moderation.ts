// Endpoints of the moderation feature (apps/server/src/features/moderation), issue 11.
export const moderationEndpoints = {};
