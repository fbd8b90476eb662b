// Shapes of the moderation feature (issue 11).
export {};
