export * from './answer.js';
export * from './judge.js';
export * from './pricing.js';
export * from './prompt.js';
export * from './rubrics.js';
export * from './statistics.js';
