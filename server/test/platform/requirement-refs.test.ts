/**
 * The code's references to the requirements resolve (docs/requirements.md): a comment or test that
 * cites "requirements R9.4" points at a rule that is written down.
 */
import { describe, expect, it } from 'vitest';
import { citedIds, definedIds, unresolvedRefs } from '../../../tools/scripts/requirement-refs.mjs';

describe('references to docs/requirements.md', () => {
  it('all name a numbered item or section of it', () => {
    expect(unresolvedRefs()).toEqual([]);
  });

  it('are read in every form the code uses, and a missing one is found', () => {
    const defined = definedIds('## R9 Constants\n- **R9.3** Rounding.\n- **R9.4** Unit price.\n');
    expect([...defined].sort()).toEqual(['R9', 'R9.3', 'R9.4']);
    const cited = citedIds('(requirements R9.3–R9.4) and requirements R9, R9.7; Requirements R9.4');
    expect(cited).toEqual(['R9.3', 'R9.4', 'R9', 'R9.7', 'R9.4']);
    expect(cited.filter((id) => !defined.has(id))).toEqual(['R9.7']);
  });
});
