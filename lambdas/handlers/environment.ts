import { ConfigurationError } from '../core/errors.js';
import { z } from 'zod';
import { LazyModelClient, lazyAnthropicModel } from '../adapters/lazy-model-client.js';
import { secretKeyModelClient } from '../adapters/secret-model-client.js';
import { anthropicBaseUrl } from '../adapters/anthropic-base-url.js';
import { createSecretsClient } from '../adapters/aws-clients.js';
import { patternDepsFromEnvironment } from './pattern-environment.js';
import { required } from './store-environment.js';
import type { EvaluationDeps } from '../core/steps/evaluation-deps.js';
import type { ModelClient } from '../ports.js';

let cachedEvaluation: EvaluationDeps | undefined;

/**
 * The evaluation steps' ports: the loop's, the project's pattern sets, and the judge. The
 * API key comes from the secret named by ANTHROPIC_API_KEY_SECRET_ARN (the stack creates
 * it; `aws secretsmanager put-secret-value` fills it), or from ANTHROPIC_API_KEY.
 */
export function evaluationDepsFromEnvironment(): EvaluationDeps {
  cachedEvaluation ??= { ...patternDepsFromEnvironment(), ...modelFromEnvironment() };
  return cachedEvaluation;
}

/**
 * The judge's model. MODEL_PROVIDER=bedrock: Claude on Bedrock in AWS_REGION, signed with
 * the function role (it needs `bedrock:InvokeModel`), our model ids mapped to Bedrock's by
 * BEDROCK_MODEL_IDS (a JSON object, e.g. `{"claude-sonnet-4-6":"us.anthropic.claude-sonnet-4-6"}`;
 * ids not in it are sent as they are). Otherwise, the Anthropic API with a key from
 * ANTHROPIC_API_KEY or the secret named by ANTHROPIC_API_KEY_SECRET_ARN; neither set, no
 * model (the steps that need one skip it). The SDKs load on the first call (LazyModelClient).
 */
function modelFromEnvironment(): { model?: ModelClient } {
  const provider = process.env.MODEL_PROVIDER || 'anthropic';
  if (provider === 'bedrock') {
    const modelIds = z
      .string()
      .transform((text, context) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          context.addIssue({ code: 'custom', message: 'not JSON' });
          return z.NEVER;
        }
      })
      .pipe(z.record(z.string(), z.string().min(1)))
      .safeParse(process.env.BEDROCK_MODEL_IDS || '{}');
    if (!modelIds.success)
      throw new ConfigurationError(
        `BEDROCK_MODEL_IDS must be a JSON object of model ids to Bedrock ids: ${z.prettifyError(modelIds.error)}`,
      );
    const region = required('AWS_REGION');
    return {
      model: new LazyModelClient(async () => {
        const { BedrockModelClient } = await import('../adapters/bedrock.js');
        return new BedrockModelClient({ region, modelIds: modelIds.data });
      }),
    };
  }
  if (provider !== 'anthropic')
    throw new ConfigurationError(
      `MODEL_PROVIDER must be 'anthropic' or 'bedrock', not '${provider}'`,
    );
  const baseUrl = anthropicBaseUrl(process.env);
  const apiKey = process.env.ANTHROPIC_API_KEY;
  if (apiKey) return { model: lazyAnthropicModel({ apiKey, ...baseUrl }) };
  const secretArn = process.env.ANTHROPIC_API_KEY_SECRET_ARN;
  if (secretArn)
    return { model: secretKeyModelClient(createSecretsClient({}), secretArn, baseUrl) };
  return {};
}
