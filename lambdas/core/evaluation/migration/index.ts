export * from './errors.js';
export * from './keywords.js';
export * from './migrate.js';
export * from './report.js';
export * from './scoping-rules.js';
export * from './tech-paths.js';
export * from './v1-schema.js';
