import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type TransformOutput = ReturnType<typeof jsonSchemaTransform>;

/** `{description?, content: {'<media type>': {schema: <zod>}}}`: a body or an answer in several media types. */
interface ContentMap {
  readonly description?: string;
  readonly content: Record<string, { readonly schema: unknown }>;
}

function isContentMap(value: unknown): value is ContentMap {
  return typeof value === 'object' && value !== null && 'content' in value && !('_zod' in value);
}

/**
 * The zod transform of `/openapi.json`, which also documents bodies and answers given by media type
 * (an event stream beside JSON, a file's bytes, a multipart upload). `fastify-type-provider-zod`
 * converts only a bare zod schema per status; each media type's schema is converted here the same
 * way, one at a time, and the map handed to `@fastify/swagger`, which reads `content` as OpenAPI does.
 */
export function documentingTransform(input: TransformInput): TransformOutput {
  const schema = input.schema as Record<string, unknown> | undefined;
  if (!schema) return jsonSchemaTransform(input);
  const { body, response, ...rest } = schema;
  const answers = (response ?? {}) as Record<string, unknown>;
  const plainAnswers = Object.fromEntries(
    Object.entries(answers).filter(([, value]) => !isContentMap(value)),
  );
  const plain = {
    ...rest,
    ...(body !== undefined && !isContentMap(body) ? { body } : {}),
    ...(response !== undefined ? { response: plainAnswers } : {}),
  };
  const transformed = jsonSchemaTransform({ ...input, schema: plain } as TransformInput);
  const out = transformed.schema as Record<string, unknown>;

  const convert = (part: 'body' | 'response', zod: unknown) => {
    const single = jsonSchemaTransform({
      ...input,
      schema: part === 'body' ? { body: zod } : { response: { 200: zod } },
    } as TransformInput).schema as Record<string, unknown>;
    return part === 'body' ? single.body : (single.response as Record<string, unknown>)[200];
  };
  const convertMap = (part: 'body' | 'response', map: ContentMap) => ({
    ...(map.description !== undefined ? { description: map.description } : {}),
    content: Object.fromEntries(
      Object.entries(map.content).map(([mediaType, entry]) => [
        mediaType,
        { schema: convert(part, entry.schema) },
      ]),
    ),
  });
  if (isContentMap(body)) out.body = convertMap('body', body);
  for (const [status, value] of Object.entries(answers)) {
    if (!isContentMap(value)) continue;
    out.response = { ...(out.response as Record<string, unknown>), [status]: convertMap('response', value) };
  }
  return transformed;
}
