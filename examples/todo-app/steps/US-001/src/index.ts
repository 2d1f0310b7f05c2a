export * from './todos.js';
