/**
 * ModelClient over Claude on Amazon Bedrock (`@anthropic-ai/bedrock-sdk`): the Messages
 * API's request, sent by the SDK as InvokeModel (`POST /model/{modelId}/invoke`, the
 * version in the body as `anthropic_version: 'bedrock-2023-05-31'`) and signed with SigV4
 * (service `bedrock`), with the explicit credentials given here or else the default AWS
 * chain (in Lambda, the function role's). The retry policy is the Anthropic adapter's
 * (`model-retry.ts`): Bedrock's ThrottlingException and ModelNotReadyException (429),
 * ModelTimeoutException (408), InternalServerException (500) and
 * ServiceUnavailableException (503) are retried by their status; ValidationException
 * (400), AccessDeniedException (403), ResourceNotFoundException (404) and
 * ModelErrorException (424) are refusals.
 *
 * Bedrock names models its own way (`anthropic.claude-sonnet-4-6`, or an inference
 * profile such as `us.anthropic.claude-sonnet-4-6`); `modelIds` maps the ids of our
 * configuration to them.
 */
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import { RalphError } from '../core/errors.js';
import type { ModelClient, ModelRequest, ModelResponse } from '../ports.js';
import type { StaticCredentials } from './aws-clients.js';
import { singleTryOptions, toMessageParams, toModelResponse } from './messages-api.js';
import { ModelRetryPolicy, type ApiErrorReader, type ModelRetryOptions } from './model-retry.js';

export interface BedrockModelClientOptions extends ModelRetryOptions {
  /** Required unless `client` is given; the handler passes AWS_REGION. */
  region?: string;
  /** Left out, the SDK signs with the default AWS credential chain. */
  credentials?: StaticCredentials;
  /** Another endpoint speaking InvokeModel, e.g. `local/model-server.ts`. @default `https://bedrock-runtime.${region}.amazonaws.com` */
  baseURL?: string;
  /** A ready client (its own `maxRetries` is overridden per call with 0). */
  client?: AnthropicBedrock;
  /** Our model ids to Bedrock's; an id not listed is sent as it is. @default {} */
  modelIds?: Readonly<Record<string, string>>;
}

/** The API version Bedrock accepts for Claude, sent in the body. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/**
 * Bedrock's error body is `{ message }`, with the exception's name in `x-amzn-errortype`
 * (`ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/`).
 */
export const readBedrockError: ApiErrorReader = (error) => {
  const body = error.error as { message?: unknown } | undefined;
  const type = error.headers?.get('x-amzn-errortype')?.split(':')[0];
  return {
    type: type || (error.type ?? undefined),
    message: typeof body?.message === 'string' ? body.message : (error.apiMessage ?? error.message),
  };
};

/**
 * @example
 * const model = new BedrockModelClient({
 *   region: 'us-east-1',
 *   modelIds: { 'claude-sonnet-4-6': 'us.anthropic.claude-sonnet-4-6' },
 * });
 * await model.complete({ model: 'claude-sonnet-4-6', system: '', messages, maxTokens: 512, timeoutMs: 60_000 });
 *
 * // Against the local model double:
 * new BedrockModelClient({
 *   region: 'us-east-1',
 *   credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
 *   baseURL: server.url,
 * });
 */
export class BedrockModelClient implements ModelClient {
  readonly #client: AnthropicBedrock;
  readonly #retry: ModelRetryPolicy;
  readonly #modelIds: Readonly<Record<string, string>>;

  constructor(options: BedrockModelClientOptions) {
    this.#client = options.client ?? createClient(options);
    this.#retry = new ModelRetryPolicy(options, readBedrockError);
    this.#modelIds = options.modelIds ?? {};
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const modelId = this.#bedrockModelId(request.model);
    const { value: message, attempts } = await this.#retry.run(
      {
        ...request,
        model: modelId === request.model ? modelId : `${request.model} (Bedrock ${modelId})`,
      },
      () =>
        this.#client.messages.create(toMessageParams(request, modelId), {
          ...singleTryOptions(request),
          // Per call rather than on the client, so that a given `client` sends it too; the
          // SDK moves it into the body as `anthropic_version`.
          headers: { 'anthropic-version': BEDROCK_ANTHROPIC_VERSION },
        }),
    );
    return toModelResponse(message, attempts, modelId);
  }

  /** The id Bedrock is asked for: the mapped one, else `model` itself. */
  #bedrockModelId(model: string): string {
    return Object.hasOwn(this.#modelIds, model) ? (this.#modelIds[model] ?? model) : model;
  }
}

function createClient(options: BedrockModelClientOptions): AnthropicBedrock {
  const region = options.region;
  if (!region)
    throw new RalphError('BedrockModelClient needs a region or a client', {
      code: 'INVALID_INPUT',
    });
  const common = {
    awsRegion: region,
    // Explicit, so the SDK reads neither ANTHROPIC_BEDROCK_BASE_URL nor
    // AWS_BEARER_TOKEN_BEDROCK behind our back: configuration is read once, in the
    // handler, and the Lambda authenticates with its role.
    baseURL: options.baseURL ?? `https://bedrock-runtime.${region}.amazonaws.com`,
    apiKey: null,
    maxRetries: 0,
  };
  const credentials = options.credentials;
  if (credentials === undefined) return new AnthropicBedrock(common);
  return new AnthropicBedrock({
    ...common,
    awsAccessKey: credentials.accessKeyId,
    awsSecretKey: credentials.secretAccessKey,
    awsSessionToken: credentials.sessionToken ?? null,
  });
}
