// Shapes of the ratings feature (issue 11).
export {};
