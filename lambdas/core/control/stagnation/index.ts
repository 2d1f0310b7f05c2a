export * from './detect-patterns.js';
export * from './level.js';
