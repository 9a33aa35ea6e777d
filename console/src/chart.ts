// Small SVG charts drawn here (no chart library, nothing fetched): a line over time and a bar chart. Each is an image
// with a text alternative, and every point or bar has a tooltip with its figure.
import { s } from './dom.js';

const width = 560;
const height = 200;
const margin = { top: 12, right: 16, bottom: 34, left: 56 };

/** Round tick values from 0 to at least `max` (whole numbers for counts). */
function ticks(max: number, whole: boolean, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = whole ? Math.max(1, max / count) : max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step =
    [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((m) => m >= raw && (!whole || Number.isInteger(m))) ?? raw;
  const out: number[] = [];
  for (let v = 0; v <= max + step * 0.999; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

function frame(label: string, yTicks: number[], yFormat: (v: number) => string, y: (v: number) => number): SVGElement {
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, class: 'chart' });
  svg.appendChild(s('title', {}, label));
  for (const t of yTicks) {
    svg.appendChild(s('line', { x1: margin.left, x2: width - margin.right, y1: y(t), y2: y(t), class: 'grid' }));
    svg.appendChild(s('text', { x: margin.left - 6, y: y(t) + 4, 'text-anchor': 'end', class: 'tick' }, yFormat(t)));
  }
  return svg;
}

export interface TimePoint {
  /** Start of the period, ms since the epoch. */
  at: number;
  value: number;
  /** The tooltip. */
  label: string;
}

/** A line over time; `xFormat` labels the first, middle and last period. */
export function lineChart(
  label: string,
  points: TimePoint[],
  yFormat: (v: number) => string,
  xFormat: (at: number) => string,
): SVGElement {
  const max = Math.max(0, ...points.map((p) => p.value));
  const yTicks = ticks(max, points.every((p) => Number.isInteger(p.value)) && max > 1);
  const top = yTicks[yTicks.length - 1]!;
  const first = points[0]?.at ?? 0;
  const last = points[points.length - 1]?.at ?? first;
  const x = (at: number) =>
    last === first
      ? (margin.left + width - margin.right) / 2
      : margin.left + ((at - first) / (last - first)) * (width - margin.left - margin.right);
  const y = (v: number) => height - margin.bottom - (top > 0 ? (v / top) * (height - margin.top - margin.bottom) : 0);
  const svg = frame(label, yTicks, yFormat, y);
  if (points.length === 0) {
    svg.appendChild(
      s('text', { x: width / 2, y: height / 2, 'text-anchor': 'middle', class: 'empty' }, 'no data in this range'),
    );
    return svg;
  }
  svg.appendChild(s('polyline', { points: points.map((p) => `${x(p.at)},${y(p.value)}`).join(' '), class: 'line' }));
  for (const p of points)
    svg.appendChild(
      s(
        'circle',
        { cx: x(p.at), cy: y(p.value), r: points.length > 60 ? 1.5 : 3, class: 'dot' },
        s('title', {}, p.label),
      ),
    );
  const labelled =
    points.length > 2 ? [points[0]!, points[Math.floor(points.length / 2)]!, points[points.length - 1]!] : points;
  labelled.forEach((p, i) => {
    const anchor = labelled.length === 1 ? 'middle' : i === 0 ? 'start' : i === labelled.length - 1 ? 'end' : 'middle';
    svg.appendChild(
      s('text', { x: x(p.at), y: height - margin.bottom + 18, 'text-anchor': anchor, class: 'tick' }, xFormat(p.at)),
    );
  });
  return svg;
}

interface Bar {
  label: string;
  value: number;
  /** The tooltip. */
  title: string;
}

/** Bars side by side, each labelled below. */
export function barChart(label: string, bars: Bar[], yFormat: (v: number) => string): SVGElement {
  const max = Math.max(0, ...bars.map((b) => b.value));
  const yTicks = ticks(
    max,
    bars.every((b) => Number.isInteger(b.value)),
  );
  const top = yTicks[yTicks.length - 1]!;
  const y = (v: number) => height - margin.bottom - (top > 0 ? (v / top) * (height - margin.top - margin.bottom) : 0);
  const svg = frame(label, yTicks, yFormat, y);
  const slot = (width - margin.left - margin.right) / Math.max(1, bars.length);
  const every = Math.ceil(bars.length / 12);
  bars.forEach((bar, i) => {
    const x = margin.left + i * slot;
    svg.appendChild(
      s(
        'rect',
        {
          x: x + slot * 0.12,
          y: y(bar.value),
          width: slot * 0.76,
          height: Math.max(0, y(0) - y(bar.value)),
          class: 'bar',
        },
        s('title', {}, bar.title),
      ),
    );
    if (i % every === 0)
      svg.appendChild(
        s(
          'text',
          { x: x + slot / 2, y: height - margin.bottom + 18, 'text-anchor': 'middle', class: 'tick' },
          bar.label,
        ),
      );
  });
  if (bars.length === 0)
    svg.appendChild(s('text', { x: width / 2, y: height / 2, 'text-anchor': 'middle', class: 'empty' }, 'no data'));
  return svg;
}
