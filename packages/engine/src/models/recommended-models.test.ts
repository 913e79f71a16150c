import { describe, expect, it } from 'vitest';
import { isAcceptedLicence } from './licence-policy.js';
import { DEFAULT_PULL_MODEL, findRecommendedModel, RECOMMENDED_MODELS } from './recommended-models.js';

// The curated list is data read from model pages; these checks catch an entry that could not be
// pulled or that claims what it cannot show (a figure without its page, a made-up digest).
describe('RECOMMENDED_MODELS', () => {
  it('names every model once, with its own pin', () => {
    const names = RECOMMENDED_MODELS.map((model) => model.name);
    const pins = RECOMMENDED_MODELS.map((model) => model.pin);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(pins).size).toBe(pins.length);
    expect(findRecommendedModel(DEFAULT_PULL_MODEL)?.engineKind).toBe('nli');
  });

  it.each(RECOMMENDED_MODELS.map((model) => [model.name, model] as const))(
    '%s: pins a full commit or none, and a digest only in full',
    (_, model) => {
      if (model.revision !== null) expect(model.revision).toMatch(/^[0-9a-f]{40}$/);
      for (const file of model.files) {
        if (file.sha256 !== null) expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(file.path).not.toMatch(/^\/|\.\./);
      }
    },
  );

  it.each(RECOMMENDED_MODELS.map((model) => [model.name, model] as const))(
    '%s: states a licence the pull accepts, and where each reported figure was read',
    (_, model) => {
      expect(isAcceptedLicence(model.licence)).toBe(true);
      expect(model.licenceSource.length).toBeGreaterThan(0);
      if (model.reportedAccuracy) {
        expect(model.reportedAccuracy.value).toBeGreaterThan(0);
        expect(model.reportedAccuracy.value).toBeLessThanOrEqual(1);
        expect(model.reportedAccuracy.source).toMatch(/^https:\/\//);
      }
      expect(model.sources.every((source) => source.startsWith('https://'))).toBe(true);
    },
  );

  it('lists a System One GGUF of a type the llama-cpp engine reads with label tokens', () => {
    const systemOne = RECOMMENDED_MODELS.filter(
      (model) => model.engineKind === 'llama-cpp' && model.repo === 'ggml-org/lev-GGUF',
    );
    expect(systemOne).toHaveLength(1);
    expect(systemOne[0]?.reportedAccuracy?.metric).toContain('not of this Q4_K_M GGUF');
  });
});
