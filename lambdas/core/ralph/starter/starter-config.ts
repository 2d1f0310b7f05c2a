/** The ralph.config.json `ralph init` writes: the detected gates, every other field defaulted. */
import { RunConfigSchema, type RunConfigInput } from '../../schemas/config.js';
import type { DetectedGate } from './repository-files.js';

/**
 * Only what differs from the defaults is written, so the file stays short and a later
 * change of a default reaches it. Checked by RunConfigSchema, as `ralph run` will read it.
 */
export function starterConfig(gates: readonly DetectedGate[]): RunConfigInput {
  const config: RunConfigInput = {
    gates: gates.map(({ name, command }) => ({ name, command })),
  };
  RunConfigSchema.parse(config);
  return config;
}
