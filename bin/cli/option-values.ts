/** Parsers of option values commander calls: a bad value is refused as bad input (exit 2). */
import { InvalidArgumentError } from 'commander';

export function positiveInt(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new InvalidArgumentError('expected a positive whole number');
  return parsed;
}

/** A TCP port to listen on; 0 picks a free one. */
export function port(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isInteger(parsed) || parsed < 0 || parsed > 65535)
    throw new InvalidArgumentError('expected a port from 0 to 65535 (0: a free one)');
  return parsed;
}

/** A share, 0 to 1 (a success rate). */
export function share(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !(parsed >= 0 && parsed <= 1))
    throw new InvalidArgumentError('expected a share from 0 to 1, such as 0.8');
  return parsed;
}

/** A repeatable option: every value given, in order. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
