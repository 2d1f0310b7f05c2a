#!/usr/bin/env node
// Installed entry: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('./ralph.ts');
