/** The Decision API's wire shapes as the console reads them (docs/api.md). */

export type Criterion = string | Record<string, unknown> | unknown[] | null;

export type Question =
  | { type: 'noul'; instructions?: Criterion; criteria?: { true?: Criterion; false?: Criterion } | null }
  | { type: 'choice'; instructions?: Criterion; criteria: Record<string, Criterion> }
  | { type: 'score'; instructions?: Criterion; criteria: Criterion[] };

export interface AnswerMeta {
  engine: string;
  abstained: boolean;
  coverage?: number;
  verbalised?: boolean;
  evidence?: string[];
}

export type Answer =
  | { type: 'noul'; noul: number; arbiter?: AnswerMeta }
  | {
      type: 'choice';
      choice: string;
      confidence: number;
      probabilities: Record<string, number>;
      arbiter?: AnswerMeta;
    }
  | {
      type: 'score';
      score: number;
      confidence: number;
      probabilities: Record<string, number>;
      legend: Record<string, Criterion>;
      arbiter?: AnswerMeta;
    };

export interface DecisionResponse {
  model: string;
  answers: Record<string, Answer>;
  usage?: Record<string, unknown>;
}

export interface CatalogModel {
  name: string;
  description: string;
  kind: 'pin' | 'alias';
  target: string;
  engine: string;
}
