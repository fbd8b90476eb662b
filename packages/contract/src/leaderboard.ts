// Shapes of the leaderboard feature (issue 11).
export {};
