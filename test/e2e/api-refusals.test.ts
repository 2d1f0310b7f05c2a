import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import { runEnded, useApiServer } from '../support/api-server.js';
import { WRITING_AGENT } from '../support/e2e-stack.js';
import { makeGitRepo, makePrd } from '../support/git-repo.js';
import { waitUntil } from '../support/local-runs.js';

/**
 * Every refusal of the Run API through real HTTP: the status, a problem+json body that says
 * what is wrong and where, and nothing stored (table items and objects before = after).
 */
describe('Run API refusals through real HTTP', () => {
  const api = useApiServer();
  let repo: string;
  let prd: Prd;
  let completedRun: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    prd = makePrd(1);
    const made = await makeGitRepo({ 'prd.json': JSON.stringify(prd) });
    repo = made.path;
    cleanup = made.cleanup;
    const { json } = await api().call('POST', '/runs', {
      body: { repo, prd, config: { agent: { command: WRITING_AGENT } } },
    });
    completedRun = json.runId;
    await runEnded(api(), completedRun);
    await api().idle();
  });
  afterAll(async () => cleanup());

  /** Sends the request and checks it was refused as a problem, with nothing written. */
  async function refused(
    method: string,
    path: string,
    options: Parameters<ReturnType<typeof api>['call']>[2] = {},
  ) {
    const before = await api().stored();
    const answer = await api().call(method, path, options);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.json).toMatchObject({ type: 'about:blank', status: answer.status });
    expect(await api().stored()).toEqual(before);
    return answer;
  }

  describe('bad bodies', () => {
    it('malformed JSON is 400, naming the syntax error', async () => {
      const answer = await refused('POST', '/runs', { rawBody: '{"repo": "x", ' });
      expect(answer.status).toBe(400);
      expect(answer.json.errors[0]).toMatch(/^\(root\): not valid JSON/);
    });

    it('a wrong type deep in the prd is 400 with its path', async () => {
      const stories = [{ ...prd.userStories[0]!, acceptanceCriteria: 'Tests pass' }];
      const answer = await refused('POST', '/runs', {
        body: { repo, prd: { ...prd, userStories: stories } },
      });
      expect(answer.status).toBe(400);
      expect(answer.json.errors).toEqual([
        expect.stringMatching(/^prd\.userStories\[0\]\.acceptanceCriteria: expected array/),
      ]);
    });

    it('an empty userStories is 400', async () => {
      const answer = await refused('POST', '/runs', {
        body: { repo, prd: { ...prd, userStories: [] } },
      });
      expect(answer.status).toBe(400);
      expect(answer.json.errors).toEqual([expect.stringMatching(/^prd\.userStories: /)]);
    });

    it('a config whose segments would pass the execution-history cap is 400, with the arithmetic', async () => {
      const config = {
        evaluation: { enabled: true, suite: { command: 'true', maxDocuments: 200 } },
        limits: { iterationsPerSegment: 25 },
      };
      const answer = await refused('POST', '/runs', { body: { repo, prd, config } });
      expect(answer.status).toBe(400);
      expect(answer.json.errors).toEqual([
        expect.stringMatching(
          /^config\.limits\.iterationsPerSegment: 25 iterations × 1446 events \(46 \+ 7 × 200 artefacts judged\) = 36150 events, over the 20000 .* at most 13 fit/,
        ),
      ]);
    });

    it('an unknown key is 400, naming the nearest known one', async () => {
      const answer = await refused('POST', '/runs', { body: { repo, prd, confg: {} } });
      expect(answer.json.errors).toEqual(['confg: unknown key — did you mean config?']);
    });

    it('a body over 1 MiB is 413', async () => {
      const padding = 'x'.repeat(1024 * 1024);
      const answer = await refused('POST', '/runs', {
        body: { repo, prd: { ...prd, description: padding } },
      });
      expect(answer.status).toBe(413);
    });

    it('a body that is not JSON is 415', async () => {
      const answer = await refused('POST', '/runs', {
        rawBody: 'repo=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(answer.status).toBe(415);
    });

    it('a local path is refused by a deployment only: here a relative path is 400', async () => {
      const answer = await refused('POST', '/runs', { body: { repo: 'my-app', prd } });
      expect(answer.status).toBe(400);
      expect(answer.json.errors[0]).toMatch(/^repo: /);
    });
  });

  describe('runs that are not there, or not in a state for it', () => {
    it('an unknown run is 404', async () => {
      expect((await refused('GET', '/runs/r20991231-000000-ffffff')).status).toBe(404);
      expect((await refused('GET', '/runs/r20991231-000000-ffffff/iterations')).status).toBe(404);
      expect((await refused('POST', '/runs/r20991231-000000-ffffff/cancel')).status).toBe(404);
    });

    it('cancelling a completed run is 409', async () => {
      const answer = await refused('POST', `/runs/${completedRun}/cancel`);
      expect(answer.status).toBe(409);
      expect(answer.json.detail).toMatch(/already ended \(completed\)/);
    });

    it('resuming a running run is 409', async () => {
      // Arrange: a run whose agent has started (its iteration's writes are done) and waits.
      const waiting = await makeGitRepo({ 'prd.json': JSON.stringify(prd) });
      const agent = 'cat > /dev/null; echo started > ../started-$RALPH_STORY_ID; sleep 30';
      const { json } = await api().call('POST', '/runs', {
        body: { repo: waiting.path, prd, config: { agent: { command: agent } } },
      });
      await waitUntil(async () => existsSync(join(waiting.path, '..', 'started-US-001')));

      // Act
      const answer = await refused('POST', `/runs/${json.runId}/resume`);

      // Assess
      expect(answer.status).toBe(409);
      expect(answer.json.detail).toMatch(/still running/);
      await api().call('POST', `/runs/${json.runId}/cancel`);
      await runEnded(api(), json.runId);
      await rm(join(waiting.path, '..', 'started-US-001'), { force: true });
      await waiting.cleanup();
    });

    it('an artefact the iteration did not write is 404; a name with a path in it is 400', async () => {
      const base = `/runs/${completedRun}/iterations/1/artefacts`;
      expect((await refused('GET', `${base}/suite.json`)).status).toBe(404);
      expect((await refused('GET', `${base}/..%2F..%2Frequest.json`)).status).toBe(400);
    });

    it('a path with .. does not reach another route', async () => {
      const answer = await refused('GET', `/runs/${completedRun}/iterations/../../..`);
      expect(answer.status).toBe(404);
    });

    it('an iteration number that is not a number is 400', async () => {
      expect((await refused('GET', `/runs/${completedRun}/iterations/first`)).status).toBe(400);
    });
  });

  describe('signatures', () => {
    it('an unsigned request is 401', async () => {
      const answer = await refused('POST', '/runs', { body: { repo, prd }, credential: false });
      expect(answer.status).toBe(401);
    });

    it('a wrong secret is 403', async () => {
      const credential = { ...api().credential, secretAccessKey: 'not-the-secret' };
      const answer = await refused('POST', '/runs', { body: { repo, prd }, credential });
      expect(answer.status).toBe(403);
    });

    it('a signature made for another body is 403', async () => {
      const answer = await refused('POST', '/runs', {
        body: { repo, prd },
        signAs: { body: JSON.stringify({ repo, prd: makePrd(2) }) },
      });
      expect(answer.status).toBe(403);
    });

    it('a signature made for another route is 403', async () => {
      const answer = await refused('POST', `/runs/${completedRun}/cancel`, {
        signAs: { path: `/runs/${completedRun}/resume` },
      });
      expect(answer.status).toBe(403);
    });
  });
});
