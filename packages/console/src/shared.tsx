import type { ComponentChildren } from 'preact';
import { ApiFailure } from './api-client.js';

/** An error as the API stated it: its code, message and the parameter it names. */
export function ErrorNote({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  if (error instanceof ApiFailure)
    return (
      <div class="error" role="alert">
        <strong>
          {error.status}
          {error.code ? ` ${error.code}` : ''}
        </strong>
        : {error.message}
        {error.param ? <span class="muted"> (param: {error.param})</span> : null}
      </div>
    );
  return (
    <div class="error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </div>
  );
}

/** One labelled probability bar; the width is set through the CSSOM, which the CSP allows. */
export function Bar({ label, value, chosen }: { label: string; value: number; chosen?: boolean }) {
  const percent = Math.round(value * 1000) / 10;
  return (
    <div class={chosen ? 'bar chosen' : 'bar'}>
      <span class="bar-label">{label}</span>
      {/* biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot be drawn the same in both themes across browsers; this span carries the same role and values. */}
      <span
        class="bar-track"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={1}
        aria-valuenow={value}
      >
        <span class="bar-fill" style={{ width: `${percent}%` }} />
      </span>
      <span class="bar-value">{percent.toFixed(1)}%</span>
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="card">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** Parses JSON typed by a person, naming what is wrong in their terms. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
