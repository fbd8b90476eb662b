// Endpoints of the ratings feature (apps/server/src/features/ratings), issue 11.
export const ratingEndpoints = {};
