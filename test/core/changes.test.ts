/** How the audit trail (tx history, the audit PDF) prints a change and where an imported row came from. */
import { describe, expect, it } from 'vitest';
import { changeText, sourceText } from '../../src/core/changes.js';

describe('audit trail text', () => {
  it('prints old → new, none as an em dash, and a field without recorded values alone', () => {
    expect(changeText('notes', { old: null, new: 'rent' })).toBe('notes: — → rent');
    expect(changeText('tags', { old: [], new: ['Payroll', 'Gas'] })).toBe('tags: — → Payroll, Gas');
    expect(changeText('notes', {})).toBe('notes');
  });

  it('names the file and its SHA-256, or the explorer, chain and list of a synced row', () => {
    expect(sourceText({ format: 'etherscan', file_name: 'a.csv', sha256: 'ab'.repeat(32) })).toBe(`from a.csv (etherscan), SHA-256 ${'ab'.repeat(32)}`);
    expect(sourceText({ format: 'sync', sync: 'blockscout', chain: 'base', list: 'tokentx' })).toBe('from the blockscout API (base, tokentx)');
  });
});
