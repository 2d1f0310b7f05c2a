export * from './prd.js';
export * from './config.js';
export * from './records.js';
export * from './iteration-io.js';
export * from './evaluation-records.js';
