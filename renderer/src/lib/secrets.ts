// The dashboard masks and picks password inputs by the same rule as the API and the logs
// (decisions §2). secret-rule.ts is pure and import-free: the one file under main/ the renderer
// may import at runtime (test/architecture.test.ts).
export { isSensitiveEntry, isSensitiveKey, MASK } from '../../../main/infra/secret-rule.js';
