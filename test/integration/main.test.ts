import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT_BAD_ENVIRONMENT, main, readEnvironment } from '../../agent/main.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Module: agent/main', () => {
  describe('Function: readEnvironment', () => {
    it('reads the task environment', () => {
      // Act
      const config = readEnvironment({
        RALPH_RUN_ID: 'run-1',
        RALPH_ITERATION: '3',
        TABLE_NAME: 'ralph',
        BUCKET_NAME: 'ralph-artefacts',
        GIT_TOKEN: 'token',
        RALPH_WORKSPACE_ROOT: '/workspace',
      });

      // Assess
      expect(config).toEqual({
        runId: 'run-1',
        iteration: 3,
        tableName: 'ralph',
        bucketName: 'ralph-artefacts',
        gitToken: 'token',
        workspaceRoot: '/workspace',
        endpoints: {},
      });
    });

    it('reads the confinement: the agent user, the runner role and local endpoints', () => {
      // Act
      const config = readEnvironment({
        RALPH_RUN_ID: 'run-1',
        RALPH_ITERATION: '1',
        TABLE_NAME: 'ralph',
        BUCKET_NAME: 'ralph-artefacts',
        RALPH_AGENT_USER: 'agent',
        RALPH_RUNNER_ROLE_ARN: 'arn:aws:iam::123456789012:role/runner',
        AWS_ENDPOINT_URL_STS: 'http://127.0.0.1:4000',
      });

      // Assess
      expect(config).toMatchObject({
        agentUser: 'agent',
        runnerRoleArn: 'arn:aws:iam::123456789012:role/runner',
        endpoints: { sts: 'http://127.0.0.1:4000' },
      });
    });

    it('names every missing or malformed variable at once', () => {
      // Act
      const read = () => readEnvironment({ RALPH_ITERATION: 'two', TABLE_NAME: ' ' });

      // Assess
      expect(read).toThrow(
        'the agent container\'s environment is incomplete: RALPH_RUN_ID is not set; TABLE_NAME is not set; BUCKET_NAME is not set; RALPH_ITERATION must be a positive integer, got "two"',
      );
    });
  });

  describe('Function: main', () => {
    it('exits with the bad-environment status and one JSON log line', async () => {
      // Prepare
      const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);

      // Act
      const status = await main({});

      // Assess
      expect(status).toBe(EXIT_BAD_ENVIRONMENT);
      expect(write).toHaveBeenCalledTimes(1);
      const line = JSON.parse(String(write.mock.calls[0]?.[0])) as {
        level: string;
        message: string;
      };
      expect(line.level).toBe('ERROR');
      expect(line.message).toContain('RALPH_RUN_ID is not set');
    });
  });
});
