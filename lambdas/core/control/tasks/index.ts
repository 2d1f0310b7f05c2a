export * from './task-state.js';
