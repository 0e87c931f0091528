/** Markup built by `html`: inserted as it is, where any other value is escaped. */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]);
}

/** A template whose every value is escaped, except markup built by `html` itself (alone or in arrays). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  return new SafeHtml(strings.reduce((markup, string, index) => markup + valueMarkup(values[index - 1]) + string));
}

function valueMarkup(value: unknown): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(valueMarkup).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}
