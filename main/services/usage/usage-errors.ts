/** No usable cache and the scan failed: the API answers 503 `Cache unavailable`. */
export class UsageUnavailableError extends Error {}

/** Reading or aggregating failed where a cache could not hide it: 500 `Failed to fetch usage data`. */
export class UsageFetchError extends Error {}

/** An hourly window longer than the service serves: 400 `Invalid date range`. */
export class UsageRangeError extends Error {}
