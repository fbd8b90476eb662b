// Endpoints of the recommendations feature (apps/server/src/features/recommendations), issue 11.
export const recommendationEndpoints = {};
