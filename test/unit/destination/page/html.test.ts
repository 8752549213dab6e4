/** The markup template tag escapes what it is given, unless it is markup made by markup or raw. */
import { escapeHtml } from '../../../../src/base/html-escape';
import { markup, raw } from '../../../../src/destination/page/html';

describe('markup', () => {
  it('escapes text and numbers, puts nothing for undefined, null and false', () => {
    const name = `"x" & <b>'y'</b>`;
    const cell = markup`<td title="${name}">${name}</td>`;
    expect(cell.text).toBe(
      '<td title="&#34;x&#34; &#38; &#60;b&#62;&#39;y&#39;&#60;/b&#62;">&#34;x&#34; &#38; &#60;b&#62;&#39;y&#39;&#60;/b&#62;</td>',
    );
    expect(markup`${1.5}|${undefined}|${null}|${false}|${0}`.text).toBe('1.5||||0');
  });

  it('keeps markup made by markup or raw, and joins arrays', () => {
    const cells = ['a<', 'b'].map((t) => markup`<td>${t}</td>`);
    expect(markup`<tr>${cells}</tr>${raw('<hr>')}`.text).toBe('<tr><td>a&#60;</td><td>b</td></tr><hr>');
  });

  it('escapeHtml leaves no markup character', () => {
    expect(escapeHtml(`<>&"'`)).toBe('&#60;&#62;&#38;&#34;&#39;');
  });
});
