/** Decisions §5 and spec section 3: how old cached usage data may be, per answer. */
export const FRESH_MS = 60_000;
export const MONTHLY_FRESH_MS = 300_000;
/** Older data is not served at all: a read waits for a scan. */
export const STALE_LIMIT_MS = 7 * 24 * 3_600_000;
