/**
 * Every `error` string the API answers with, from the spec (part 7) and decisions.md.
 * Tests import these too, so a typo cannot hide on both sides... except that tests also
 * assert a few literally, to catch a change to this file.
 */
export const E = {
  // whole API (decisions §1)
  notFound: 'Not found',
  methodNotAllowed: 'Method not allowed',
  invalidJson: 'Invalid JSON in request body',
  bodyTooLarge: 'Request body too large',
  forbiddenHost: 'Forbidden host',
  crossOrigin: 'Cross-origin request refused',
  internal: 'Internal server error',
  // answered for Node's HTTP parser (api/client-errors.ts)
  badRequest: 'Bad request',
  headersTooLarge: 'Request header fields too large',
  requestTimeout: 'Request timeout',
  // settings, presets, tokens (spec 7, decisions §2)
  settingsRequired: 'settings object is required in request body',
  settingsNotFound: 'Settings not found',
  invalidProfile: 'Invalid profile name',
  presetNotFound: 'Preset not found',
  presetExists: 'Preset with this name already exists',
  presetFieldsRequired: 'Missing required fields: name, default',
  invalidPreset: 'Invalid preset',
  modifiedExternally: 'File modified externally',
  invalidExpectedMtime: 'expectedMtime must be an integer',
  writeSettingsFailed: 'Failed to write settings file',
  writeConfigFailed: 'Failed to write config file',
  readSettingsFailed: 'Failed to read settings file',
  tokensRequired: 'apiKey or managementSecret is required',
  invalidToken: 'Invalid token value',
  // switching (issue 18)
  claudeSettingsInvalid: 'Claude Code settings are not valid JSON',
  nothingToUndo: 'Nothing to undo',
  // shared, agent tool, app config (decisions §3)
  invalidType: 'Invalid or missing type parameter',
  invalidPath: 'Invalid or missing path parameter',
  sharedNotFound: 'Shared content not found',
  sharedTooLarge: 'Shared content too large',
  invalidConfigFile: 'Invalid config file',
  invalidConfig: 'Invalid config',
  invalidSettingsJson: 'Invalid JSON in settings',
  sharedLinkFailed: 'Cannot link shared directories',
  // proxy (decisions §4)
  missingContent: 'Missing required field: content',
  configNotFound: 'Config file not found',
  invalidYaml: 'Invalid YAML',
  proxyNotRunning: 'CLIProxy Plus not running',
  proxyStartFailed: 'Failed to start proxy',
  /** 409: a proxy-stop cancelled this start (issue 17); not a failure, so not a 500. */
  proxyStartCancelled: 'Proxy start cancelled',
  invalidLogName: 'Invalid error log filename',
  logNotFound: 'Error log not found',
  fileTooLarge: 'File too large to read',
  missingName: 'Missing required query parameter: name',
  invalidFilename: 'Invalid filename',
  authFileNotFound: 'Auth file not found',
  invalidProvider: 'Invalid provider',
  invalidAccountId: 'Invalid account ID',
  accountNotFound: 'Account not found',
  tooManyQuotaRequests: 'Too many quota requests',
  quotaFetchFailed: 'Quota fetch failed',
  invalidRequestLogFilter: 'Invalid request log filter',
  // usage (spec 7, decisions §5)
  usageFetchFailed: 'Failed to fetch usage data',
  cacheUnavailable: 'Cache unavailable',
  invalidDate: 'Invalid date format. Use YYYYMMDD',
  invalidDateRange: 'Invalid date range',
  invalidTimezone: 'Invalid timezone',
  invalidPagination: 'Invalid pagination parameters',
  invalidCostMode: 'Invalid cost mode',
  invalidSessionFilter: 'Invalid session filter',
  invalidRefreshOption: 'Invalid refresh option',
  // bridge (decisions §6)
  editorDbNotFound: 'Editor database not found',
  sqliteUnavailable: 'sqlite3 is not available',
  invalidCredentials: 'Invalid token or machine ID format',
  autoDetectWindows: 'Auto-detect is not supported on Windows; import the token manually',
  missingCredentialsFields: 'Missing accessToken or machineId',
  bridgeDisabled: 'Bridge is disabled',
  bridgeCredentialsMissing: 'Bridge credentials missing',
  bridgeCredentialsExpired: 'Bridge credentials expired',
  bridgeStartFailed: 'Failed to start bridge daemon',
  bridgeStopFailed: 'Failed to stop bridge daemon',
  invalidBridgeSettings: 'Invalid bridge settings',
  // managed CLIProxyAPI (decisions §4.1)
  checksumMismatch: 'Checksum mismatch',
  knownBadVersion: 'Known-bad version',
  noReleaseAsset: 'No release asset',
  cliproxyDownloadFailed: 'Download failed',
  invalidCliproxyInstall: 'Invalid install request',
  invalidCliproxyPin: 'Invalid pin',
  cliproxyNotInstalled: 'CLIProxyAPI not installed',
  cliproxyStartFailed: 'Failed to start CLIProxyAPI',
} as const;

export type ErrorText = (typeof E)[keyof typeof E];
