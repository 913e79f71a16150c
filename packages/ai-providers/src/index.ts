export { createProvider, type ProviderSettings } from './create-provider.js';
export { type LanguageModelSpecOptions, languageModelFromSpec } from './language-model-spec.js';
export { isProviderKind, PROVIDER_KINDS, type ProviderKind } from './provider-kind.js';
