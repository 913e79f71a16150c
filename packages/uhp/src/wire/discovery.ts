import { z } from 'zod';

/** The nine named capabilities; a server reports `false` rather than omitting one. */
export const UHP_CAPABILITY_NAMES = [
  'streaming',
  'sessions',
  'cancellation',
  'files_input',
  'files_output',
  'session_listing',
  'harness_management',
  'session_sharing',
  'idempotency',
] as const;
export type UhpCapabilityName = (typeof UHP_CAPABILITY_NAMES)[number];

export const capabilitiesSchema = z.record(z.string(), z.boolean());
/** A client treats an absent capability as `false`. */
export type Capabilities = Partial<Record<UhpCapabilityName, boolean>> & Record<string, boolean>;

export const conformanceClassSchema = z.enum(['core', 'extended', 'full']);
export type ConformanceClass = z.infer<typeof conformanceClassSchema>;

/** `GET /v1/uhp`: served without authentication, nothing principal-specific. */
export const discoverySchema = z.looseObject({
  object: z.literal('uhp.discovery'),
  protocol: z.literal('uhp'),
  versions: z.array(z.string()).min(1),
  default_version: z.string(),
  conformance_class: conformanceClassSchema,
  capabilities: capabilitiesSchema,
  implementation: z.looseObject({ name: z.string().optional(), version: z.string().optional() }).optional(),
});
export type Discovery = z.infer<typeof discoverySchema>;
