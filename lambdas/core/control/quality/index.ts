export * from './gate-kind.js';
export * from './markdown.js';
export * from './remediation.js';
export * from './enforce.js';
export * from './review-section.js';
export * from './security-findings.js';
