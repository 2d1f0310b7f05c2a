import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import { runEnded, useApiServer } from '../support/api-server.js';
import { WRITING_AGENT } from '../support/e2e-stack.js';
import { git } from '../support/git-repo.js';
import { useReposWithPrd } from '../support/repos-with-prd.js';
import { waitUntil } from '../support/local-runs.js';

describe('Run API through real HTTP on the local server', () => {
  const api = useApiServer();
  const repoWithPrd = useReposWithPrd();

  const startBody = (repo: string, prd: Prd, agent = WRITING_AGENT) => ({
    repo,
    prd,
    config: { agent: { command: agent } },
  });

  describe('a run from start to end', () => {
    it('starts a run (202 with links), follows it to completed, and lists its iterations and artefacts', async () => {
      // Arrange
      const { repo, prd } = await repoWithPrd(2);

      // Act
      const started = await api().call('POST', '/runs', { body: startBody(repo, prd) });
      const view = await runEnded(api(), started.json.runId);
      const iterations = await api().call('GET', `/runs/${started.json.runId}/iterations`);
      const first = await api().call('GET', `/runs/${started.json.runId}/iterations/1`);

      // Assess
      expect(started.status).toBe(202);
      expect(started.json).toMatchObject({
        segment: 1,
        links: { self: `/runs/${started.json.runId}` },
      });
      expect(view.run).toMatchObject({ status: 'completed', storiesPassed: 2 });
      expect(view.stories.map((story: { status: string }) => story.status)).toEqual([
        'complete',
        'complete',
      ]);
      expect(iterations.json.iterations.map((it: { outcome: string }) => it.outcome)).toEqual([
        'passed',
        'passed',
      ]);
      expect(Object.keys(first.json.artefacts)).toEqual(
        expect.arrayContaining(['plan.json', 'prompt.md', 'diff.patch', 'result.json']),
      );
    });

    it('redirects to an artefact with a presigned URL that reads it without credentials', async () => {
      // Arrange
      const { repo, prd } = await repoWithPrd(1);
      const { json } = await api().call('POST', '/runs', { body: startBody(repo, prd) });
      await runEnded(api(), json.runId);

      // Act
      const answer = await api().call(
        'GET',
        `/runs/${json.runId}/iterations/1/artefacts/prompt.md`,
      );
      const location = new URL(answer.headers.location!);
      const artefact = await fetch(location);

      // Assess
      expect(answer.status).toBe(302);
      expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
      expect(artefact.status).toBe(200);
      expect(await artefact.text()).toContain('US-001');
    });

    it('lists runs newest first, by status, in pages', async () => {
      // Act
      const first = await api().call('GET', '/runs?limit=1&status=completed');
      const second = await api().call(
        'GET',
        `/runs?limit=1&status=completed&cursor=${encodeURIComponent(first.json.nextCursor)}`,
      );

      // Assess
      expect(first.status).toBe(200);
      expect(first.json.runs).toHaveLength(1);
      expect(second.json.runs).toHaveLength(1);
      expect(second.json.runs[0].runId).not.toBe(first.json.runs[0].runId);
      expect(second.json.runs[0].createdAt <= first.json.runs[0].createdAt).toBe(true);
    });
  });

  describe('curl', () => {
    it('accepts a request signed by curl --aws-sigv4, as the README shows', async () => {
      // Arrange
      const { credential, region, url } = api();

      // Act
      const { stdout } = await execa('curl', [
        '--silent',
        '--show-error',
        '--aws-sigv4',
        `aws:amz:${region}:execute-api`,
        '--user',
        `${credential.accessKeyId}:${credential.secretAccessKey}`,
        '--write-out',
        '\\n%{http_code}',
        `${url}/runs?limit=1`,
      ]);
      const [body, status] = stdout.split('\n');

      // Assess
      expect(status).toBe('200');
      expect(JSON.parse(body!)).toHaveProperty('runs');
    });
  });

  describe('cancel and resume', () => {
    it('cancel stops a running run at its next step (its agent too)', async () => {
      // Arrange
      const { repo, prd } = await repoWithPrd(2);
      const agent = 'cat > /dev/null; echo started > started.txt; sleep 30';
      const { json } = await api().call('POST', '/runs', { body: startBody(repo, prd, agent) });
      await waitUntil(async () => existsSync(join(repo, 'started.txt')));

      // Act
      const cancel = await api().call('POST', `/runs/${json.runId}/cancel`);
      const view = await runEnded(api(), json.runId);

      // Assess
      expect(cancel.status).toBe(200);
      expect(cancel.json.run.cancelRequested).toBe(true);
      expect(view.run.status).toBe('cancelled');
    });

    it('resumes a paused run in a new segment, which completes it', async () => {
      // Arrange: uncommitted work of the user's pauses the run.
      const { repo, prd } = await repoWithPrd(1, { 'notes.md': 'mine\n' });
      await writeFile(join(repo, 'notes.md'), 'work in progress\n');
      const { json } = await api().call('POST', '/runs', { body: startBody(repo, prd) });
      const paused = await runEnded(api(), json.runId);
      const identity = ['-c', 'user.name=u', '-c', 'user.email=u@example.invalid'];
      await git(repo, ...identity, 'commit', '-qam', 'wip');

      // Act
      const resume = await api().call('POST', `/runs/${json.runId}/resume`);
      await waitUntil(async () => {
        const { json: view } = await api().call('GET', `/runs/${json.runId}`);
        return view.run.segment === 2 && view.run.status !== 'running';
      });
      const done = await api().call('GET', `/runs/${json.runId}`);

      // Assess
      expect(paused.run.status).toBe('paused');
      expect(resume.status).toBe(202);
      expect(resume.json).toMatchObject({ runId: json.runId, segment: 2 });
      expect(done.json.run).toMatchObject({ status: 'completed', segment: 2 });
    });
    it('continues a run that stopped at its iteration limit with a higher maxIterations', async () => {
      // Arrange: a run of two stories with a limit of one iteration.
      const { repo, prd } = await repoWithPrd(2);
      const body = {
        ...startBody(repo, prd),
        config: { agent: { command: WRITING_AGENT }, limits: { maxIterations: 1 } },
      };
      const { json } = await api().call('POST', '/runs', { body });
      const stopped = await runEnded(api(), json.runId);
      const path = `/runs/${json.runId}/resume`;

      // Act
      const used = await api().call('POST', path, { body: { maxIterations: 1 } });
      const unknown = await api().call('POST', path, { body: { maxIterations: 3, extra: 1 } });
      const resume = await api().call('POST', path, { body: { maxIterations: 3 } });
      await waitUntil(async () => {
        const { json: view } = await api().call('GET', `/runs/${json.runId}`);
        return view.run.segment === 2 && view.run.status !== 'running';
      });
      const done = await api().call('GET', `/runs/${json.runId}`);

      // Assess
      expect(stopped.run.status).toBe('max_iterations');
      expect(used.status).toBe(400);
      expect(used.json.detail).toMatch(/1 is not above the 1 iterations/);
      expect(unknown.status).toBe(400);
      expect(resume.status).toBe(202);
      expect(resume.json).toMatchObject({ runId: json.runId, segment: 2 });
      expect(done.json.run).toMatchObject({ status: 'completed', segment: 2, storiesPassed: 2 });
    });
  });

  describe('Idempotency-Key', () => {
    it('a retried POST with the same key gets the first answer and makes one run', async () => {
      // Arrange
      const { repo, prd } = await repoWithPrd(1);
      const headers = { 'idempotency-key': `retry-${Date.now()}` };
      const body = startBody(repo, prd);

      // Act
      const first = await api().call('POST', '/runs', { body, headers });
      const retry = await api().call('POST', '/runs', { body, headers });
      await runEnded(api(), first.json.runId);
      const requests = (await api().stored()).filter((key) => key.endsWith('/request.json'));

      // Assess
      expect(retry.status).toBe(202);
      expect(retry.json).toEqual(first.json);
      expect(requests.filter((key) => key.includes(first.json.runId))).toHaveLength(1);
    });

    it('the same key with another body is 422, and starts nothing', async () => {
      // Arrange
      const { repo, prd } = await repoWithPrd(1);
      const headers = { 'idempotency-key': `reuse-${Date.now()}` };
      const first = await api().call('POST', '/runs', { body: startBody(repo, prd), headers });
      await runEnded(api(), first.json.runId);
      await api().idle();
      const before = await api().stored();

      // Act
      const other = await api().call('POST', '/runs', {
        body: startBody(repo, { ...prd, description: 'another run' }),
        headers,
      });

      // Assess
      expect(other.status).toBe(422);
      expect(other.headers['content-type']).toBe('application/problem+json');
      expect(other.json.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await api().stored()).toEqual(before);
    });
  });
});
