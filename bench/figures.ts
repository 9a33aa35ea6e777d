// Formats benchmark figures the house way, one line per figure:
// `name: value unit (baseline name: value unit, ratio Nx)`. The ratio always says how many times better than the
// baseline a figure is: ours/baseline for throughputs, baseline/ours for times and memory.

export interface Figure {
  name: string;
  value: number;
  unit: string;
}

type Better = 'higher' | 'lower';

const decimals: Record<string, number> = { 'messages/s': 0, 'quads/s': 0, 'requests/s': 0, MiB: 1, s: 2 };

export function formatValue(value: number, unit: string): string {
  return value.toFixed(decimals[unit] ?? 2);
}

function ratioOf(figure: Figure, baseline: Figure, better: Better): number {
  return better === 'higher' ? figure.value / baseline.value : baseline.value / figure.value;
}

export function formatRatio(ratio: number): string {
  return `${ratio >= 100 ? ratio.toFixed(0) : ratio.toFixed(1)}x`;
}

export function figureLine(figure: Figure, baseline: Figure, better: Better): string {
  const ratio = ratioOf(figure, baseline, better);
  return `${figure.name}: ${formatValue(figure.value, figure.unit)} ${figure.unit} (baseline ${baseline.name}: ${formatValue(baseline.value, baseline.unit)} ${baseline.unit}, ratio ${formatRatio(ratio)})`;
}
