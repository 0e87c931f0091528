import { escapeHtml, html } from './html';

describe('html', () => {
  it('escapes every interpolated value', () => {
    const text = `<script>alert("x")</script> & 'quotes'`;
    expect(html`<p title="${text}">${text}</p>`.markup).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</p>',
    );
  });

  it('inserts markup built by html as it is, alone or in a list', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>`.markup).toBe('<ul><li>a&lt;b</li><li>c</li></ul>');
  });

  it('leaves out undefined, null and false', () => {
    expect(html`<p>${undefined}${null}${false}${0}</p>`.markup).toBe('<p>0</p>');
  });

  it('escapes text on its own', () => {
    expect(escapeHtml('"><img src=x onerror=alert(1)>')).toBe('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
  });
});
