export * from './gate-kind.js';
export * from './markdown.js';
export * from './remediation.js';
