import { type DayBucket, dayLabel, labelledIndexes, niceMax } from "./chart-geometry";
import type { RoutingRow } from "./queries";

/**
 * Inline SVG charts rendered on the server: no script, no chart library, no
 * inline style (the dashboard's CSP allows none). Colours come from the
 * dashboard's CSS classes, so they follow light and dark mode; the viewBox
 * scales to any width. Each chart has a title and a text description, and each
 * bar a tooltip with its figures.
 */
const WIDTH = 640;
const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 24, left: 36 };

/** Daily bars: values[0] as the bar, values[1] (a part of it: errors, stalled plans) drawn over it from the bottom. */
export function DailyBars(props: { id: string; title: string; description: string; days: DayBucket[]; names: [string, string] }) {
  const top = niceMax(Math.max(0, ...props.days.map((d) => d.values[0] ?? 0)));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, props.days.length);
  const barW = Math.max(2, slot * 0.7);
  const y = (value: number) => PAD.top + plotH - (value / top) * plotH;
  const labelled = labelledIndexes(props.days.length);
  const titleId = `${props.id}-title`;
  const descId = `${props.id}-desc`;
  return (
    <figure class="chart">
      <svg id={props.id} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${titleId} ${descId}`} preserveAspectRatio="xMidYMid meet">
        <title id={titleId}>{props.title}</title>
        <desc id={descId}>{props.description}</desc>
        <line class="axis" x1={PAD.left} y1={PAD.top + plotH} x2={WIDTH - PAD.right} y2={PAD.top + plotH} />
        <text class="tick" x={PAD.left - 4} y={PAD.top + 4} text-anchor="end">
          {top}
        </text>
        <text class="tick" x={PAD.left - 4} y={PAD.top + plotH} text-anchor="end">
          0
        </text>
        {props.days.map((d, i) => {
          const [total = 0, part = 0] = d.values;
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g class="day" data-day={new Date(d.day).toISOString().slice(0, 10)} data-values={`${total},${part}`}>
              <title>{`${dayLabel(d.day)}: ${total} ${props.names[0]}, ${part} ${props.names[1]}`}</title>
              {total > 0 ? <rect class="bar" x={x.toFixed(1)} y={y(total).toFixed(1)} width={barW.toFixed(1)} height={(PAD.top + plotH - y(total)).toFixed(1)} /> : null}
              {part > 0 ? <rect class="bar part" x={x.toFixed(1)} y={y(part).toFixed(1)} width={barW.toFixed(1)} height={(PAD.top + plotH - y(part)).toFixed(1)} /> : null}
              {labelled.has(i) ? (
                <text class="tick" x={(x + barW / 2).toFixed(1)} y={HEIGHT - 6} text-anchor="middle">
                  {dayLabel(d.day)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption class="muted">
        <span class="key bar" /> {props.names[0]} <span class="key part" /> of which {props.names[1]}
      </figcaption>
    </figure>
  );
}

/** Average satisfaction (1–5) per route, as horizontal bars, with how many feedbacks each rests on. */
export function SatisfactionByRoute(props: { routing: RoutingRow[] }) {
  if (props.routing.length === 0) {
    return (
      <p class="muted" id="satisfaction-chart">
        No skill executions in this window.
      </p>
    );
  }
  const rowH = 34;
  const height = PAD.top + rowH * Math.max(1, props.routing.length) + 8;
  const labelW = 70;
  const plotW = WIDTH - labelW - 120;
  return (
    <figure class="chart">
      <svg id="satisfaction-chart" viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby="satisfaction-title satisfaction-desc" preserveAspectRatio="xMidYMid meet">
        <title id="satisfaction-title">Satisfaction by route</title>
        <desc id="satisfaction-desc">
          {props.routing.map((r) => `${r.route}: ${r.avgSatisfaction === null ? "no feedback" : `${r.avgSatisfaction.toFixed(2)} of 5`} (${r.withFeedback} feedback)`).join("; ")}
        </desc>
        {props.routing.map((r, i) => {
          const y = PAD.top + i * rowH;
          const width = r.avgSatisfaction === null ? 0 : (r.avgSatisfaction / 5) * plotW;
          return (
            <g class="route" data-route={r.route} data-satisfaction={r.avgSatisfaction === null ? "" : r.avgSatisfaction.toFixed(2)}>
              <text class="tick" x={labelW - 6} y={y + 17} text-anchor="end">
                {r.route}
              </text>
              <rect class="track" x={labelW} y={y + 4} width={plotW} height={18} />
              {width > 0 ? <rect class="bar" x={labelW} y={y + 4} width={width.toFixed(1)} height={18} /> : null}
              <text class="tick" x={labelW + plotW + 6} y={y + 17}>
                {r.avgSatisfaction === null ? "no feedback" : `${r.avgSatisfaction.toFixed(1)} / 5 (${r.withFeedback})`}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
