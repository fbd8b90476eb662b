// Shapes of the blocking feature (issue 11).
export {};
