/** A decision request as something to paste elsewhere: curl, or TypeScript with fetch or the SDK. */

export type SnippetKind = 'curl' | 'typescript' | 'sdk';

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function requestSnippet(kind: SnippetKind, origin: string, body: unknown): string {
  const json = JSON.stringify(body, null, 2);
  const url = `${origin}/v1/decision`;
  if (kind === 'curl')
    return [
      `curl -s ${url} \\`,
      `  -H "Authorization: Bearer $ARBITER_API_KEY" \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  -d ${shellQuote(JSON.stringify(body))}`,
    ].join('\n');
  if (kind === 'typescript')
    return [
      `const response = await fetch('${url}', {`,
      `  method: 'POST',`,
      '  headers: {',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the snippet's own template literal, printed as text.
      '    authorization: `Bearer ${process.env.ARBITER_API_KEY}`,',
      `    'content-type': 'application/json',`,
      '  },',
      `  body: JSON.stringify(${json.replace(/\n/g, '\n  ')}),`,
      '});',
      'const { model, answers } = await response.json();',
    ].join('\n');
  const request = body as { model?: string; state: unknown; questions: unknown };
  return [
    `import { DecisionClient } from '@arbiter/decision';`,
    '',
    `// ARBITER_BASE_URL=${origin} and ARBITER_API_KEY from the environment`,
    'const client = new DecisionClient();',
    'const result = await client.decide({',
    ...(request.model ? [`  model: ${JSON.stringify(request.model)},`] : []),
    `  state: ${JSON.stringify(request.state, null, 2).replace(/\n/g, '\n  ')},`,
    `  questions: ${JSON.stringify(request.questions, null, 2).replace(/\n/g, '\n  ')},`,
    '});',
    'if (!result.skipped) console.log(result.answers);',
  ].join('\n');
}
