export * from './catalogue.js';
export * from './errors.js';
export * from './render.js';
export * from './template-files.js';
