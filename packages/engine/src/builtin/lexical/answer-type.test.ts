import { beforeAll, describe, expect, it } from 'vitest';
import { askedKindsOf, kindNamedBy } from './answer-type.js';
import { loadWordVectors, type WordVectors } from './word-vectors.js';

let vectors: WordVectors;
beforeAll(async () => {
  vectors = await loadWordVectors();
}, 180_000);

function topKind(question: string): string | undefined {
  const asked = askedKindsOf(vectors, question);
  if (asked === undefined) return undefined;
  return Object.entries(asked).reduce((best, entry) => (entry[1]! > best[1]! ? entry : best))[0];
}

describe('kindNamedBy', () => {
  it('reads options that name kinds of answer, however they are spelled', () => {
    for (const options of [
      ['person', 'place', 'number', 'description', 'abbreviation', 'entity'],
      ['HUM', 'LOC', 'NUM', 'DESC', 'ABBR', 'ENTY'],
      ['a human being', 'a location', 'a numeric value', 'an explanation', 'an acronym', 'a thing'],
    ]) {
      expect(options.map((option) => kindNamedBy(vectors, option))).toEqual([
        'person',
        'place',
        'number',
        'description',
        'abbreviation',
        'entity',
      ]);
    }
  });

  it('reads no kind in topics and most intents', () => {
    for (const option of [
      'World',
      'Sports',
      'Business',
      'card_arrival',
      'exchange_rate',
      'lost_card',
      'timezone',
    ])
      expect(kindNamedBy(vectors, option)).toBeUndefined();
  });
});

describe('askedKindsOf', () => {
  it('reads the interrogative', () => {
    expect(topKind('Who painted the ceiling of the chapel?')).toBe('person');
    expect(topKind('Where do penguins live in the wild?')).toBe('place');
    expect(topKind('When was the bridge opened?')).toBe('number');
    expect(topKind('How many strings does a violin have?')).toBe('number');
    expect(topKind('How does a refrigerator keep food cold?')).toBe('description');
    expect(topKind('Why do leaves change colour in autumn?')).toBe('description');
    expect(topKind('What does the acronym RADAR stand for?')).toBe('abbreviation');
  });

  it('reads "what X" by the head of X, and "what is a Y" as a definition', () => {
    expect(topKind('What mountain is the highest in Africa?')).toBe('place');
    expect(topKind("What country's flag has a maple leaf?")).toBe('place');
    expect(topKind('What is the population of the largest island?')).toBe('number');
    expect(topKind('Which poet wrote the sonnet?')).toBe('person');
    expect(topKind('What instrument has 88 keys?')).toBe('entity');
    expect(topKind('What is photosynthesis?')).toBe('description');
    expect(topKind('What do koalas eat?')).toBe('entity');
    expect(topKind('What does a thermostat do?')).toBe('description');
  });

  it('reads "is it A or B?" by the kind of its alternatives, not as a yes/no question', () => {
    expect(askedKindsOf(vectors, 'Was the Eiffel Tower built in 1889 or 1900?')).toEqual({ number: 1 });
    expect(askedKindsOf(vectors, 'Is a tomato a fruit or a vegetable?')).toEqual({ entity: 0.5 });
    expect(askedKindsOf(vectors, 'Is the new tenant a woman or a man?')).toEqual({ person: 1 });
    // A yes/no question without alternatives stays between a description and a thing.
    expect(askedKindsOf(vectors, 'Is it true that cats see in the dark?')).toEqual({
      description: 0.5,
      entity: 0.5,
    });
  });

  it('finds no question in a statement', () => {
    expect(askedKindsOf(vectors, 'The bridge opened in 1932.')).toBeUndefined();
  });
});
