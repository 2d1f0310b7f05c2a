/**
 * `ralph serve` as a process of its own on a data dir, the way a person starts it: resolved
 * once it has written serve.json (its endpoint), stopped with SIGTERM.
 */
import { readServeFile } from '../../local/api-server/serve-file.js';
import { ralphProcess } from './cli.js';

export interface ServeProcess {
  endpoint: string;
  stop(): Promise<void>;
}

/** `env`: what the server gets besides this process's environment (a code host, say). */
export async function startServeProcess(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = ralphProcess(['serve', '--data-dir', dataDir], { env });
  for (let waited = 0; waited < 60_000; waited += 200) {
    const file = await readServeFile(dataDir);
    if (file)
      return {
        endpoint: file.endpoint,
        stop: async () => void (child.kill('SIGTERM'), await child),
      };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`ralph serve did not start: ${(await child).all}`);
}
