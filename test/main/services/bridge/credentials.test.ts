import { describe, expect, it } from 'vitest';
import {
  credentialsExpireAt,
  isExpired,
  jwtExpiry,
  makeCredentials,
  normaliseMachineId,
  normaliseToken,
  parseStoredCredentials,
  TOKEN_LIFETIME_MS,
} from '../../../../main/services/bridge/credentials.js';
import { makeJwt, MACHINE_ID_HEX, MACHINE_ID_UUID } from '../../../fixtures/bridge/editor-db.js';

describe('bridge credential rules (spec 2.8, decisions §6)', () => {
  it('needs an access token longer than 50 characters', () => {
    expect(normaliseToken('x'.repeat(50))).toBeNull();
    expect(normaliseToken('x'.repeat(51))).toBe('x'.repeat(51));
    expect(normaliseToken(`  ${'x'.repeat(51)}\n`)).toBe('x'.repeat(51));
    expect(normaliseToken(`${'x'.repeat(30)} ${'y'.repeat(30)}`)).toBeNull();
  });

  it('takes a machine id of 32 hex characters with or without hyphens and stores it normalised', () => {
    expect(normaliseMachineId(MACHINE_ID_HEX)).toBe(MACHINE_ID_HEX);
    expect(normaliseMachineId(MACHINE_ID_UUID)).toBe(MACHINE_ID_HEX);
    expect(normaliseMachineId(MACHINE_ID_HEX.toUpperCase())).toBe(MACHINE_ID_HEX);
    expect(normaliseMachineId(MACHINE_ID_HEX.slice(0, 31))).toBeNull();
    expect(normaliseMachineId(MACHINE_ID_HEX + '0')).toBeNull();
    expect(normaliseMachineId('g' + MACHINE_ID_HEX.slice(1))).toBeNull();
    expect(normaliseMachineId('a'.repeat(64))).toBeNull();
  });

  it('rejects the pair when either value breaks its rule', () => {
    expect(makeCredentials('x'.repeat(50), MACHINE_ID_HEX, 'manual', 0)).toBeNull();
    expect(makeCredentials('x'.repeat(51), 'nope', 'manual', 0)).toBeNull();
    expect(makeCredentials('x'.repeat(51), MACHINE_ID_UUID, 'manual', 5)).toEqual({
      accessToken: 'x'.repeat(51),
      machineId: MACHINE_ID_HEX,
      authMethod: 'manual',
      importedAt: 5,
    });
  });

  it('reads the JWT exp claim in milliseconds and ignores tokens that are not JWTs', () => {
    expect(jwtExpiry(makeJwt({ exp: 1_800_000_000 }))).toBe(1_800_000_000_000);
    expect(jwtExpiry(makeJwt({ sub: 'u' }))).toBeNull();
    expect(jwtExpiry(makeJwt({ exp: 'soon' }))).toBeNull();
    expect(jwtExpiry('a.b')).toBeNull();
    expect(jwtExpiry('x'.repeat(60))).toBeNull();
    expect(jwtExpiry('aaa.!!!notbase64json!!!.ccc')).toBeNull();
  });

  it('expires at the JWT exp, else 24 hours after the import', () => {
    const importedAt = Date.UTC(2026, 0, 1);
    const plain = { accessToken: 'x'.repeat(60), importedAt };
    expect(credentialsExpireAt(plain)).toBe(importedAt + TOKEN_LIFETIME_MS);
    expect(isExpired(plain, importedAt + TOKEN_LIFETIME_MS - 1)).toBe(false);
    expect(isExpired(plain, importedAt + TOKEN_LIFETIME_MS)).toBe(true);
    const exp = importedAt / 1000 + 3600;
    const jwt = { accessToken: makeJwt({ exp }), importedAt };
    expect(credentialsExpireAt(jwt)).toBe(exp * 1000);
    expect(isExpired(jwt, exp * 1000 - 1)).toBe(false);
    expect(isExpired(jwt, exp * 1000)).toBe(true);
  });

  it('reads a stored file back, and treats a malformed one as no credentials', () => {
    expect(parseStoredCredentials({ accessToken: 'x'.repeat(51), machineId: MACHINE_ID_HEX, authMethod: 'auto-detect', importedAt: 7 })).toEqual({
      accessToken: 'x'.repeat(51),
      machineId: MACHINE_ID_HEX,
      authMethod: 'auto-detect',
      importedAt: 7,
    });
    expect(parseStoredCredentials({ accessToken: 'short', machineId: MACHINE_ID_HEX })).toBeNull();
    expect(parseStoredCredentials(null)).toBeNull();
    expect(parseStoredCredentials([])).toBeNull();
  });
});
