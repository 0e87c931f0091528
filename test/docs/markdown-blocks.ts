/** The fenced code blocks of one language in a Markdown text (```toml ... ```), each named by the line it starts on. */
export function codeBlocks(markdown: string, language: string, source: string): { name: string; code: string }[] {
  const lines = markdown.split('\n');
  const blocks: { name: string; code: string }[] = [];
  lines.forEach((line, index) => {
    if (line.trim() !== `\`\`\`${language}`) return;
    const end = lines.findIndex((candidate, at) => at > index && candidate.trim() === '```');
    blocks.push({ name: `${source}:${index + 1}`, code: lines.slice(index + 1, end).join('\n') });
  });
  return blocks;
}
