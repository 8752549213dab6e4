import { markdownCell, markdownTable } from '../../../src/base/markdown-table';

describe('markdownTable', () => {
  it('makes a header, its rule and the rows, escaping a | inside a cell', () => {
    expect(
      markdownTable(
        ['a', 'b'],
        [
          ['1', 'x | y'],
          ['`c`', ''],
        ],
      ),
    ).toEqual(['| a | b |', '|---|---|', '| 1 | x \\| y |', '| `c` |  |']);
  });

  it('escapes every | of a cell and leaves other text alone', () => {
    expect(markdownCell('a|b|c')).toBe('a\\|b\\|c');
    expect(markdownCell('no bars')).toBe('no bars');
  });
});
