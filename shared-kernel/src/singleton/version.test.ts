import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { KERNEL_VERSION, isContractCompatible } from './version.ts';

describe('KERNEL_VERSION', () => {
  it('equals the package.json version', () => {
    expect(KERNEL_VERSION).toBe('3.1.0');
    expect(pkg.version).toBe(KERNEL_VERSION);
  });
});

describe('isContractCompatible', () => {
  it('accepts the same version', () => {
    expect(isContractCompatible('1.0.0', '1.0.0')).toBe(true);
  });
  it('accepts a newer minor or patch of the same major', () => {
    expect(isContractCompatible('1.2.0', '1.0.0')).toBe(true);
    expect(isContractCompatible('1.0.3', '1.0.1')).toBe(true);
    expect(isContractCompatible('1.10.0', '1.9.5')).toBe(true);
  });
  it('rejects an older provided version', () => {
    expect(isContractCompatible('1.0.0', '1.1.0')).toBe(false);
    expect(isContractCompatible('1.1.0', '1.1.1')).toBe(false);
    expect(isContractCompatible('1.9.0', '1.10.0')).toBe(false);
  });
  it('rejects a different major in both directions', () => {
    expect(isContractCompatible('2.0.0', '1.0.0')).toBe(false);
    expect(isContractCompatible('2.0.0', '1.9.9')).toBe(false);
    expect(isContractCompatible('1.9.9', '2.0.0')).toBe(false);
  });
  it('rejects garbage', () => {
    expect(isContractCompatible('1.0', '1.0.0')).toBe(false);
    expect(isContractCompatible('1.0.0', 'latest')).toBe(false);
    expect(isContractCompatible('', '')).toBe(false);
  });
  it('tolerates a leading v and pre-release suffixes', () => {
    expect(isContractCompatible('v1.2.0', '1.2.0')).toBe(true);
    expect(isContractCompatible('1.2.0-rc.1', '1.1.0')).toBe(true);
  });
});
