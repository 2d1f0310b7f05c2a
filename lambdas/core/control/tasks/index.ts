export * from './errors.js';
export * from './select-task.js';
export * from './task-state.js';
export * from './transitions.js';
