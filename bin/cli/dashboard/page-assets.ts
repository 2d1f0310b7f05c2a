/**
 * What a dashboard page carries inline, read from disk once: uPlot's script and styles from
 * its package (no CDN: a report opens with the network off) and our own chart-drawing
 * script and styles from `assets/` beside this file (copied to dist/ by build-cli.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface PageAssets {
  uplotScript: string;
  uplotStyle: string;
  drawScript: string;
  pageStyle: string;
}

let cached: PageAssets | undefined;

export function pageAssets(): PageAssets {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const own = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
  cached = {
    uplotScript: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
    uplotStyle: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
    drawScript: own('draw-charts.js'),
    pageStyle: own('dashboard.css'),
  };
  return cached;
}
