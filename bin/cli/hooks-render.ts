/** How `ralph hooks parse` shows what a delivery became: one block per error event. */
import type { ErrorEvent, Normalised, StackFrame } from '../../lambdas/core/schemas/error-event.js';

/** How many frames a block shows, innermost first: where it was thrown, and what called it. */
const FRAMES_SHOWN = 5;

const ROUTE_WORDS: Record<ErrorEvent['route']['kind'], string> = {
  'sentry-project': 'Sentry project',
  'newrelic-policy': 'New Relic policy',
  'cloudwatch-alarm': 'CloudWatch alarm',
};

/**
 * The lines for people: for each error event its title, then what a person triages on.
 *
 * @example
 * for (const line of renderNormalised(normalise('newrelic', {}, body))) output.line(line);
 */
export function renderNormalised(result: Normalised): string[] {
  if (result.kind === 'ignored') return [`ignored (${result.source}): ${result.reason}`];
  return result.events.flatMap((event, index) => [
    ...(index > 0 ? [''] : []),
    ...renderEvent(event),
  ]);
}

function renderEvent(event: ErrorEvent): string[] {
  const rows: [string, string | undefined][] = [
    ['source', `${event.source} ${event.delivery}, ${actionText(event)}`],
    ['level', event.level],
    ['fingerprint', event.fingerprint],
    ['location', event.culprit],
    ['detail', event.detail],
    ['counts', countsText(event.counts)],
    ['first seen', event.firstSeen],
    ['last seen', event.lastSeen === event.firstSeen ? undefined : event.lastSeen],
    ['route', `${ROUTE_WORDS[event.route.kind]} ${event.route.keys.join(' or ')}`],
    ['link', event.links.web ?? event.links.api],
  ];
  const shown = rows.filter((row): row is [string, string] => row[1] !== undefined);
  return [
    event.title,
    ...shown.map(([name, value]) => `  ${name.padEnd(12)} ${value}`),
    ...framesText(event.frames),
  ];
}

/** The action in the model's word, after the sender's when they differ (`ALARM → triggered`). */
function actionText(event: ErrorEvent): string {
  return event.senderAction === event.action
    ? event.action
    : `${event.senderAction} → ${event.action}`;
}

function countsText(counts: ErrorEvent['counts']): string | undefined {
  const parts = [
    counts.seen === undefined ? undefined : `seen ${counts.seen}×`,
    counts.usersAffected === undefined
      ? undefined
      : `${counts.usersAffected} ${counts.usersAffected === 1 ? 'user' : 'users'} affected`,
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** The innermost frames first (senders list the throw last), the throw's source line under it. */
function framesText(frames: readonly StackFrame[]): string[] {
  if (frames.length === 0) return [];
  const innermost = [...frames].reverse().slice(0, FRAMES_SHOWN);
  const heading = `  frames       innermost first, ${innermost.length} of ${frames.length} (* the app's own code)`;
  const lines = innermost.flatMap((frame, index) => {
    const where = [
      frame.filename ?? frame.absPath ?? frame.module ?? '?',
      frame.lineno,
      frame.colno,
    ]
      .filter((part) => part !== undefined)
      .join(':');
    const line = `    ${frame.inApp ? '*' : ' '} ${where}${frame.function ? ` in ${frame.function}` : ''}`;
    return index === 0 && frame.contextLine
      ? [line, `        ${frame.contextLine.trim()}`]
      : [line];
  });
  return [heading, ...lines];
}
