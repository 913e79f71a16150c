/** The provider families Arbiter speaks to, each through its Vercel AI SDK package. */
export const PROVIDER_KINDS = ['openai-compatible', 'openai', 'anthropic', 'google'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export function isProviderKind(value: string): value is ProviderKind {
  return (PROVIDER_KINDS as readonly string[]).includes(value);
}
