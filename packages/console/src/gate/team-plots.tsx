import { Bar } from '../shared.js';
import {
  approvalRate,
  dayColumns,
  niceCeiling,
  STACK_ORDER,
  stackSegments,
  topPrograms,
} from './team-plot-data.js';
import type { TeamStats } from './team-types.js';

/**
 * The team view's plots as small hand-drawn SVG (no chart library in the bundle). Each is an
 * `img` with a title and a description, every bar has a tooltip `<title>`, and the same numbers
 * follow as a table, so nothing is only in the drawing. Colours come from the stylesheet (CSP:
 * no inline style), and the verdict colours are the ones the rest of the console uses.
 */

const WIDTH = 360;
const HEIGHT = 180;
const LEFT = 36;
const BOTTOM = 22;
const TOP = 8;

/** Verdicts per day as stacked bars: ALLOW at the bottom, then ASK, then DENY. */
export function VerdictsPerDay({ perDay }: { perDay: TeamStats['per_day'] }) {
  const { columns, hidden } = dayColumns(perDay);
  if (columns.length === 0) return <p class="muted">No verdicts in this range.</p>;
  const top = niceCeiling(Math.max(...columns.map((column) => column.total)));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const step = (WIDTH - LEFT) / columns.length;
  const barWidth = Math.max(2, step * 0.7);
  const totals = STACK_ORDER.map((verdict) => columns.reduce((sum, column) => sum + column[verdict], 0));
  const labelEvery = Math.ceil(columns.length / 8);
  return (
    <figure class="plot" data-testid="plot-per-day">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="per-day-title per-day-desc"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id="per-day-title">Verdicts per day</title>
        <desc id="per-day-desc">
          {`${columns.length} days from ${columns[0]?.day} to ${columns.at(-1)?.day}: ` +
            STACK_ORDER.map((verdict, index) => `${totals[index]} ${verdict}`).join(', ')}
        </desc>
        <line class="axis" x1={LEFT} y1={TOP + plotHeight} x2={WIDTH} y2={TOP + plotHeight} />
        <text class="tick" x={LEFT - 4} y={TOP + 4} text-anchor="end">
          {top}
        </text>
        <text class="tick" x={LEFT - 4} y={TOP + plotHeight} text-anchor="end">
          0
        </text>
        {columns.map((column, index) => {
          const x = LEFT + index * step + (step - barWidth) / 2;
          return (
            <g key={column.day} data-day={column.day}>
              {stackSegments(column, top, plotHeight).map((segment) => (
                <rect
                  key={segment.verdict}
                  class={`seg ${segment.verdict}`}
                  x={x}
                  y={TOP + plotHeight - segment.from - segment.size}
                  width={barWidth}
                  height={segment.size}
                >
                  <title>{`${column.day}: ${segment.count} ${segment.verdict}`}</title>
                </rect>
              ))}
              {index % labelEvery === 0 ? (
                <text class="tick" x={x + barWidth / 2} y={HEIGHT - 6} text-anchor="middle">
                  {column.day.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <Legend entries={STACK_ORDER.map((verdict) => [verdict, verdict])} />
        {hidden > 0 ? (
          <span class="muted"> {hidden} older days are in the numbers, not the drawing.</span>
        ) : null}
      </figcaption>
      <details>
        <summary>Verdicts per day as numbers</summary>
        <table aria-label="verdicts per day">
          <thead>
            <tr>
              <th>Day</th>
              <th>ALLOW</th>
              <th>ASK</th>
              <th>DENY</th>
            </tr>
          </thead>
          <tbody>
            {[...perDay]
              .sort((a, b) => b.day.localeCompare(a.day))
              .map((day) => (
                <tr key={day.day}>
                  <td>{day.day}</td>
                  <td>{day.ALLOW}</td>
                  <td>{day.ASK}</td>
                  <td>{day.DENY}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

const ROW = 22;
const LABEL = 90;

/** The most-asked programs as horizontal bars: approved, declined, and not answered (yet). */
export function MostAskedPrograms({ programs: all }: { programs: TeamStats['asked_programs'] }) {
  const { programs, hidden } = topPrograms(all);
  if (programs.length === 0) return <p class="muted">No program was asked about in this range.</p>;
  const top = niceCeiling(Math.max(...programs.map((entry) => entry.asked)));
  const plotWidth = WIDTH - LABEL - 30;
  const height = programs.length * ROW + 4;
  return (
    <figure class="plot" data-testid="plot-programs">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby="programs-title programs-desc">
        <title id="programs-title">The most-asked programs</title>
        <desc id="programs-desc">
          {programs
            .map(
              (entry) =>
                `${entry.program}: asked ${entry.asked}, approved ${entry.approved}, declined ${entry.declined}`,
            )
            .join('; ')}
        </desc>
        {programs.map((entry, index) => {
          const y = index * ROW + 2;
          const unit = plotWidth / top;
          const open = Math.max(0, entry.asked - entry.approved - entry.declined);
          const parts = [
            ['approved', entry.approved],
            ['declined', entry.declined],
            ['open', open],
          ] as const;
          let x = LABEL;
          return (
            <g key={entry.program} data-program={entry.program}>
              <text class="tick" x={LABEL - 6} y={y + ROW / 2 + 4} text-anchor="end">
                {entry.program.length > 13 ? `${entry.program.slice(0, 12)}…` : entry.program}
              </text>
              {parts.map(([part, count]) => {
                const width = count * unit;
                const rect =
                  count > 0 ? (
                    <rect key={part} class={`seg ${part}`} x={x} y={y + 3} width={width} height={ROW - 6}>
                      <title>{`${entry.program}: ${count} ${part === 'open' ? 'not answered' : part}`}</title>
                    </rect>
                  ) : null;
                x += width;
                return rect;
              })}
              <text class="tick" x={x + 4} y={y + ROW / 2 + 4}>
                {entry.asked}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        <Legend
          entries={[
            ['approved', 'approved'],
            ['declined', 'declined'],
            ['open', 'not answered'],
          ]}
        />
        {hidden > 0 ? <span class="muted"> and {hidden} more programs in the numbers.</span> : null}
      </figcaption>
      <details>
        <summary>Asked programs as numbers</summary>
        <table aria-label="asked programs">
          <thead>
            <tr>
              <th>Program</th>
              <th>Asked</th>
              <th>Approved</th>
              <th>Declined</th>
            </tr>
          </thead>
          <tbody>
            {topPrograms(all, all.length).programs.map((entry) => (
              <tr key={entry.program}>
                <td>
                  <code>{entry.program}</code>
                </td>
                <td>{entry.asked}</td>
                <td>{entry.approved}</td>
                <td>{entry.declined}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** How often a person let an asked call run: the rate as a meter, and the counts it comes from. */
export function ApprovalRate({ approval }: { approval: TeamStats['approval'] }) {
  const rate = approvalRate(approval);
  return (
    <div class="approval" data-testid="approval-rate">
      {rate === null ? (
        <p class="muted">No asked call has been answered yet.</p>
      ) : (
        <Bar label="approved" value={rate} chosen />
      )}
      <p>
        Of <strong>{approval.asked}</strong> asked: <strong>{approval.approved}</strong> approved,{' '}
        <strong>{approval.declined}</strong> declined, <strong>{approval.pending}</strong> pending.
      </p>
    </div>
  );
}

function Legend({ entries }: { entries: readonly (readonly [string, string])[] }) {
  return (
    <span class="legend">
      {entries.map(([kind, label]) => (
        <span key={kind} class="legend-entry">
          <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">
            <rect class={`seg ${kind}`} width="10" height="10" />
          </svg>
          {label}
        </span>
      ))}
    </span>
  );
}
