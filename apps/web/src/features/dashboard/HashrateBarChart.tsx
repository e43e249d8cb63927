// ECharts bar chart of a hashrate series, its time axis named with the time zone. Imported lazily so
// echarts stays out of the home bundle.
import { useEffect, useRef } from 'react';
import { init, use as registerEchartsParts, type ComposeOption } from 'echarts/core';
import { BarChart, type BarSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

registerEchartsParts([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

type Option = ComposeOption<
  BarSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

export interface HashrateBarChartProps {
  labels: string[];
  values: number[];
  legend: string;
  /** The time axis' name, saying its time zone (e.g. "Time (GMT+3)"). */
  timeAxis: string;
  /** Accessible summary (the canvas itself is not readable). */
  summary: string;
}

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

function buildOption({ labels, values, legend, timeAxis }: HashrateBarChartProps): Option {
  const text = cssVar('--color-text-muted', '#9aa4b2');
  return {
    color: [cssVar('--color-accent', '#f5b83d')],
    grid: { top: 36, bottom: 48, left: 48, right: 16, containLabel: false },
    legend: { data: [legend], textStyle: { color: text }, top: 0 },
    tooltip: { trigger: 'axis' },
    xAxis: {
      type: 'category',
      data: labels,
      axisLabel: { color: text },
      name: timeAxis,
      nameLocation: 'middle',
      nameGap: 28,
      nameTextStyle: { color: text },
    },
    yAxis: {
      type: 'value',
      axisLabel: { color: text },
      splitLine: { lineStyle: { color: cssVar('--color-border', '#2a3446') } },
    },
    series: [{ name: legend, type: 'bar', data: values, barMaxWidth: 18 }],
  };
}

export default function HashrateBarChart(props: HashrateBarChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const chart = init(element);
    chart.setOption(buildOption(props));
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize());
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      chart.dispose();
    };
  }, [props]);
  return <div ref={ref} className="chart-box" role="img" aria-label={props.summary} />;
}
