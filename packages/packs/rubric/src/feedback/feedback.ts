/** Feedback on a grade that needs revision, tied to the criteria that failed. */
export interface Feedback {
  text: string;
  /** `model` when a coding model wrote it, `rubric` when it was built from the rubric's own words. */
  source: 'model' | 'rubric';
  /** The model that wrote it (`provider:model`), when one did. */
  model?: string;
  /** Why the configured model's feedback could not be used, when the rubric's had to stand in. */
  modelError?: string;
}
