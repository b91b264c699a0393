/** The one error type handlers throw; the error middleware turns it into `{error, message?, ...extra}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message ?? error);
    this.detail = message;
  }
  readonly detail: string | undefined;

  toBody(): Record<string, unknown> {
    return { error: this.error, ...(this.detail !== undefined ? { message: this.detail } : {}), ...this.extra };
  }
}
