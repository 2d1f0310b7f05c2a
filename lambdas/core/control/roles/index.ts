export * from './select-role.js';
