import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { timeZoneLabel } from '../../lib/format';
import { Sparkline, sparklinePoints } from './Sparkline';

describe('Sparkline', () => {
  it('draws the series oldest first, scaled to the box, and zeros on the baseline', () => {
    expect(sparklinePoints([0, 5, 10], 100, 22)).toBe('0.0,21.0 50.0,11.0 100.0,1.0');
    expect(sparklinePoints([0, 0], 10, 10)).toBe('0.0,9.0 10.0,9.0');
    expect(sparklinePoints([], 10, 10)).toBe('');
  });

  it('is an image named for screen readers, and a dash when the worker has no shares today', () => {
    const { rerender } = render(
      <Sparkline values={[1, 2, 3]} label="Hashrate of rig1 over the last 24 hours" />,
    );
    expect(screen.getByRole('img', { name: 'Hashrate of rig1 over the last 24 hours' })).toBeInTheDocument();
    rerender(<Sparkline values={[]} label="x" />);
    expect(screen.getByText('—')).toBeInTheDocument();
  });
});

describe('chart time zone label', () => {
  it('names the zone the times are shown in, in the UI language', () => {
    const at = new Date('2026-11-25T12:00:00Z');
    expect(timeZoneLabel('en', at, 'UTC')).toBe('UTC');
    expect(timeZoneLabel('en', at, 'Asia/Riyadh')).toBe('GMT+3');
    expect(timeZoneLabel('ar', at, 'Asia/Riyadh')).toMatch(/\+3/);
  });
});
