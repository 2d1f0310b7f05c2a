export * from './health.js';
export * from './verdict.js';
