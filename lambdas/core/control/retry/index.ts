export * from './classify-failure.js';
export * from './decompose.js';
export * from './parse-compiler.js';
export * from './parse-missing-context.js';
export * from './parse-tests.js';
export * from './recovery-strategy.js';
export * from './text.js';
