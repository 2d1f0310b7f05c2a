/**
 * Every git wrapper, for the runner until it is split into stages that import what each
 * needs.
 */
export * from './branches.js';
export * from './command.js';
export * from './commits.js';
export * from './diff.js';
export * from './refs.js';
export * from './remote.js';
export * from './reset.js';
export * from './staging.js';
export * from './status.js';
