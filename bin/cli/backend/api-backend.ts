import { randomUUID } from 'node:crypto';
import { artefactLink, runArtefactLink, runLinks } from '../../../lambdas/core/runs/links.js';
import {
  CancelResultSchema,
  IterationListSchema,
  IterationViewSchema,
  RunStartedSchema,
  RunsPageSchema,
  RunViewSchema,
} from '../../../lambdas/core/schemas/run-views.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { ApiClient } from '../remote/api-client.js';
import type { RemoteRunBackend } from './run-backend.js';

/**
 * A Run API (a deployment, or `ralph serve`); `dataDirFlags` are what a command needs besides
 * the endpoint to reach it again (the data dir holding `ralph serve`'s credential).
 */
export function apiBackend(client: ApiClient, dataDirFlags = ''): RemoteRunBackend {
  // One key per CLI invocation: a start retried after a lost answer starts one run.
  const idempotencyKey = randomUUID();
  return {
    label: `API ${client.base}`,
    // The execution-status rule ends a deployment's run whose execution stops.
    interruptedRuns: async () => new Set(),
    flags: ` --endpoint ${client.base}${dataDirFlags}`,
    listRuns: ({ status, limit, cursor }) => {
      const query = new URLSearchParams({ limit: String(limit) });
      if (status) query.set('status', status);
      if (cursor) query.set('cursor', cursor);
      return client.json(
        { method: 'GET', path: `/runs?${query}`, retry: 'any-failure' },
        RunsPageSchema,
      );
    },
    showRun: (runId) =>
      client.json(
        { method: 'GET', path: runLinks(runId).self, retry: 'any-failure' },
        RunViewSchema,
      ),
    listIterations: async (runId) =>
      (
        await client.json(
          { method: 'GET', path: runLinks(runId).iterations, retry: 'any-failure' },
          IterationListSchema,
        )
      ).iterations,
    showIteration: (runId, iteration) =>
      client.json(
        { method: 'GET', path: `${runLinks(runId).iterations}/${iteration}`, retry: 'any-failure' },
        IterationViewSchema,
      ),
    readArtefact: (runId, iteration, name) =>
      readPresigned(client, name, artefactLink(runId, iteration, name)),
    readRunArtefact: (runId, name) => readPresigned(client, name, runArtefactLink(runId, name)),
    cancel: async (runId) =>
      (
        await client.json(
          { method: 'POST', path: runLinks(runId).cancel, retry: 'refused-only' },
          CancelResultSchema,
        )
      ).run,
    resume: (runId, body) =>
      client.json(
        { method: 'POST', path: runLinks(runId).resume, body, retry: 'refused-only' },
        RunStartedSchema,
      ),
    start: (body) =>
      client.json(
        {
          method: 'POST',
          path: '/runs',
          body,
          headers: { 'idempotency-key': idempotencyKey },
          retry: 'any-failure',
        },
        RunStartedSchema,
      ),
    describeArtefact: (key) => {
      const match = /^runs\/([^/]+)\/iterations\/(\d+)\/([^/]+)$/.exec(key);
      if (match) return `${client.base}${artefactLink(match[1]!, Number(match[2]), match[3]!)}`;
      const run = /^runs\/([^/]+)\/$/.exec(key);
      return run ? `${client.base}${runLinks(run[1]!).iterations}` : key;
    },
  };
}

/** An artefact's text through the presigned URL the API redirects `path` to. */
async function readPresigned(client: ApiClient, name: string, path: string): Promise<string> {
  const location = await client.location({ method: 'GET', path, retry: 'any-failure' });
  // A presigned URL: it carries its own authorization, and must not get ours.
  const response = await fetch(location, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok)
    throw new CliError(`${name}: the artefact's URL answered ${response.status}`, EXIT.internal);
  return response.text();
}
