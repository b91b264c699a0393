/** A usage error: printed without a stack, exit code 2. */
export class CliError extends Error {}

export function parsePort(value: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(`invalid port: ${value}`);
  const port = Number(value);
  if (port > 65535) throw new CliError(`invalid port: ${value}`);
  return port;
}
