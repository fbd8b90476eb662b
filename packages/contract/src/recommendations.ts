// Shapes of the recommendations feature (issue 11).
export {};
