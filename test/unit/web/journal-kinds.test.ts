import { JOURNAL_KINDS } from '../../../src/base/journal';
import { JOURNAL_KINDS as PAGE_KINDS } from '../../../web/dashboard/types';

describe("the dashboard's journal kinds", () => {
  it('are the journal kinds the device writes (the page keeps its own copy: it cannot load CommonJS)', () => {
    expect([...PAGE_KINDS].sort()).toEqual([...JOURNAL_KINDS].sort());
  });
});
