import { codeSpans } from '../../../web/dashboard/inline-code';

describe("the dashboard's inline code (the catalogues' `x`)", () => {
  it('cuts a text at its backtick pairs: code without the backticks, the rest plain', () => {
    expect(codeSpans('with `pings: false` the device stops reading')).toEqual([
      { text: 'with ', code: false },
      { text: 'pings: false', code: true },
      { text: ' the device stops reading', code: false },
    ]);
    expect(codeSpans('`a` and `b`')).toEqual([
      { text: 'a', code: true },
      { text: ' and ', code: false },
      { text: 'b', code: true },
    ]);
  });

  it('leaves a text without backticks whole, and an unpaired backtick or an empty pair as they are', () => {
    expect(codeSpans('plain')).toEqual([{ text: 'plain', code: false }]);
    expect(codeSpans('')).toEqual([]);
    expect(codeSpans('a ` b')).toEqual([{ text: 'a ` b', code: false }]);
    expect(codeSpans('`x` then `y')).toEqual([
      { text: 'x', code: true },
      { text: ' then `y', code: false },
    ]);
    expect(codeSpans('empty `` pair')).toEqual([{ text: 'empty `` pair', code: false }]);
  });

  it('keeps markup in the text as text (the page makes it with textContent)', () => {
    expect(codeSpans('`<img src=x onerror=alert(1)>` <b>')).toEqual([
      { text: '<img src=x onerror=alert(1)>', code: true },
      { text: ' <b>', code: false },
    ]);
  });
});
