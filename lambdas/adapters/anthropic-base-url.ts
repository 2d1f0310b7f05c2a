import { ConfigurationError } from '../core/errors.js';

/**
 * ANTHROPIC_BASE_URL, the SDK's own variable for a gateway or proxy in front of the
 * Messages API, checked: the adapter passes its base URL explicitly (so nothing changes it
 * behind our back), and this is how a deployment or a developer still points it elsewhere.
 */
export function anthropicBaseUrl(env: NodeJS.ProcessEnv): { baseURL?: string } {
  const value = env.ANTHROPIC_BASE_URL?.trim();
  if (!value) return {};
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`ANTHROPIC_BASE_URL "${value}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigurationError(`ANTHROPIC_BASE_URL "${value}" is not an http(s) URL`);
  return { baseURL: value.replace(/\/$/, '') };
}
