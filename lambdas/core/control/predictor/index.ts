export * from './risk.js';
