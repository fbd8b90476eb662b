// Endpoints of the leaderboard feature (apps/server/src/features/leaderboard), issue 11.
export const leaderboardEndpoints = {};
